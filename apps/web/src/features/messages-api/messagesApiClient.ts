import { type ApiMessageSendReply, apiMediaFileName } from '@balcao/shared';
import { http } from '../../api/client';
import { backendUrl } from '../../api/config';
import { ApiError } from '../../api/http';

export interface TestMessage {
  token: string;
  number: string;
  body: string;
  file: File | null;
}

/** Generates (or replaces) a connection's API token: the reply is the only time it is shown. */
export const generateConnectionToken = (whatsappId: number) =>
  http.post<{ token: string }>(`/whatsapp/${whatsappId}/token`);

/** Where the API answers: the host every example of the page names. */
export const apiSendUrl = () => `${backendUrl()}/api/messages/send`;

/**
 * Calls the external API as an outside system would: with the connection's token, not the
 * session's (so a refused token never touches the user's session). A file goes as multipart
 * under `medias`, its name with underscores for spaces (spec part 2 §5); text alone as JSON.
 */
export async function sendTestMessage(message: TestMessage): Promise<ApiMessageSendReply> {
  const headers: Record<string, string> = { Authorization: `Bearer ${message.token.trim()}` };
  let body: BodyInit;
  if (message.file) {
    const form = new FormData();
    form.append('number', message.number);
    form.append('body', message.body);
    form.append('medias', message.file, apiMediaFileName(message.file.name));
    body = form;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({ number: message.number, body: message.body });
  }
  const response = await fetch(apiSendUrl(), { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // Not JSON: kept as the message of the error below.
  }
  if (!response.ok) {
    const record = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { message: parsed };
    throw new ApiError(response.status, record);
  }
  return parsed as ApiMessageSendReply;
}
