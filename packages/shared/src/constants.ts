/** Business constants and limits of spec §9 (both documents). */
export const APP_VERSION = 'v1.10.0';
export const SOCKET_PING_MS = 18_000;
export const HEARTBEAT_MS = 300_000;
export const SEARCH_DEBOUNCE_MS = 500;
/** Toasts of spec part 1's screens (login, tickets, connections): "Toasts last 2 s" (§9). */
export const TOAST_MS = 2_000;
/** Toasts of spec part 2's screens (its §2 route table): "auto-close after 3000 ms in this area". */
export const TOAST_MS_EXTENDED = 3_000;
export const CONNECTION_BADGE_DELAY_MS = 2_000;
export const LOGOUT_ELSEWHERE_DELAY_MS = 1_000;
export const SUBSCRIPTION_WARNING_DAYS = 5;
export const MOBILE_BREAKPOINT_PX = 600;
export const DRAWER_WIDTH_PX = 240;
export const CONTACT_DRAWER_WIDTH_PX = 320;
export const INFINITE_SCROLL_THRESHOLD_PX = 100;
export const VOLUME = { min: 0, max: 1, step: 0.1, default: 1 } as const;
export const NAME_LENGTH = { min: 2, max: 50 } as const;
export const PASSWORD_LENGTH = { min: 5, max: 50 } as const;
export const NUMBER_LENGTH = { min: 8, max: 50 } as const;
export const SEARCH_MIN_CHARS = 3;
export const PAGE_SIZE = 20;
export const MAX_USE_BOT_QUEUES_DEFAULT = 3;
export const DEFAULT_PROVIDER = 'beta';
/** Largest avatar upload (beyond the spec): the server answers 413 past it, the profile dialog says so first. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** The 50 fixed colours of the queue (and tag) colour palette (spec part 2 §9). */
export const QUEUE_COLOR_PALETTE: readonly string[] = [
  '#B80000',
  '#DB3E00',
  '#FCCB00',
  '#008B02',
  '#006B76',
  '#1273DE',
  '#004DCF',
  '#5300EB',
  '#EB9694',
  '#FAD0C3',
  '#FEF3BD',
  '#C1E1C5',
  '#BEDADC',
  '#C4DEF6',
  '#BED3F3',
  '#D4C4FB',
  '#4D4D4D',
  '#999999',
  '#FFFFFF',
  '#F44E3B',
  '#FE9200',
  '#FCDC00',
  '#DBDF00',
  '#A4DD00',
  '#68CCCA',
  '#73D8FF',
  '#AEA1FF',
  '#FDA1FF',
  '#333333',
  '#808080',
  '#CCCCCC',
  '#D33115',
  '#E27300',
  '#FCC400',
  '#B0BC00',
  '#68BC00',
  '#16A5A5',
  '#009CE0',
  '#7B64FF',
  '#FA28FF',
  '#000000',
  '#666666',
  '#B3B3B3',
  '#9F0500',
  '#C45100',
  '#FB9E00',
  '#808900',
  '#194D33',
  '#0C797D',
  '#0062B1',
];

export const PLAN_FLAGS = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Recurrence = (typeof RECURRENCES)[number];
export const RECURRENCE_MONTHS: Record<Recurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

/** Browser storage keys of spec §3. */
export const STORAGE = {
  token: 'token',
  companyId: 'companyId',
  userId: 'userId',
  companyDueDate: 'companyDueDate',
  cshow: 'cshow',
  volume: 'volume',
  loggedIn: 'loggedIn',
  username: 'username',
  signOption: 'signOption',
  preferredTheme: 'preferredTheme',
  language: 'language',
} as const;
