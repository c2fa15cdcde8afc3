/** The ERR_* catalogue: one code, one HTTP status. The web translates codes through i18n. */
export const errorCatalogue = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Codes of our own, for rules the spec states without naming a code.
  ERR_VALIDATION: 400,
  /** Access token missing, expired or forged: the client refreshes once (spec §4). */
  ERR_INVALID_TOKEN: 403,
  ERR_NOT_FOUND: 404,
  ERR_SUBSCRIPTION_EXPIRED: 401,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_PLAN_LIMIT_USERS: 403,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_DUPLICATED_EMAIL: 409,
  ERR_DUPLICATED_NAME: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_CANNOT_DELETE_PLATFORM: 400,
  ERR_PLAN_LIMIT_CONNECTIONS: 403,
  ERR_PLAN_LIMIT_QUEUES: 403,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUEUE_OPTION_FOUND: 404,
  ERR_NO_TAG_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_NO_NOTE_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  /** A help video that is neither a YouTube link nor an 11-character video id (DOMAIN §15). */
  ERR_INVALID_VIDEO: 400,
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  ERR_MEDIA_NOT_FOUND: 404,
  ERR_NO_FILE_LIST_FOUND: 404,
  /** A file list option whose bytes are an executable or no known document, image, audio or video type. */
  ERR_INVALID_FILE_TYPE: 415,
  /** An avatar or announcement image that is not a PNG or JPEG (checked by its bytes, not its name or declared type). */
  ERR_INVALID_IMAGE: 415,
  /** A plain user must choose a queue for a new ticket ("Selecione uma fila"). */
  ERR_QUEUE_REQUIRED: 400,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_TAG_NAME_ALREADY_EXISTS: 409,
  ERR_WAPP_NAME_ALREADY_EXISTS: 409,
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  ERR_NO_IMPORT_FOUND: 404,
  ERR_IMPORT_FILE_TYPE: 415,
  ERR_IMPORT_FILE_TOO_LARGE: 413,
  ERR_IMPORT_TOO_MANY_ROWS: 400,
  ERR_IMPORT_FILE_UNREADABLE: 400,
  ERR_NO_SCHEDULE_FOUND: 404,
  /** A schedule's `sendAt` less than one minute ahead (DOMAIN §7). */
  ERR_SCHEDULE_SEND_AT: 400,
  /** A schedule already sent (or being sent) cannot be edited. */
  ERR_SCHEDULE_SENT: 409,
  ERR_NO_CAMPAIGN_FOUND: 404,
  /** Spec part 2 §8: only INATIVA, or PROGRAMADA more than an hour ahead (CANCELADA: messages only). */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  /** Cancel needs EM_ANDAMENTO, restart needs CANCELADA. */
  ERR_CAMPAIGN_STATUS: 409,
  ERR_NO_CHAT_FOUND: 404,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_NO_INVOICE_FOUND: 404,
  /** A checkout of an invoice already paid. */
  ERR_INVOICE_PAID: 409,
  /** The payment provider failed or refused to create the charge. */
  ERR_PAYMENT_PROVIDER: 502,
  /** The widget's "auth" step with an e-mail or password that are not the caller's (not 401: that ends the session). */
  ERR_ASSISTANT_INVALID_CREDENTIALS: 400,
  /** A widget call before its "auth" step, or after its logout. */
  ERR_ASSISTANT_SIGNED_OUT: 409,
  /** A widget chat call with no personal token stored ("Token não configurado"). */
  ERR_ASSISTANT_NO_TOKEN: 409,
  /** The widget's daily quota is used up (DOMAIN §19). */
  ERR_ASSISTANT_DAILY_LIMIT: 429,
  /** The chat-completion provider failed, timed out or refused the token. */
  ERR_ASSISTANT_PROVIDER: 502,
  ERR_INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

/** Body of every error reply. `message` is human text; `fields` lists validation failures. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  fields?: { path: string; message: string }[];
  [extra: string]: unknown;
}
