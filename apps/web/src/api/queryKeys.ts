/** TanStack Query keys, one place so socket handlers and screens agree. */
export const queryKeys = {
  users: {
    all: ['users'] as const,
    lists: ['users', 'list'] as const,
    list: (searchParam: string) => ['users', 'list', searchParam] as const,
    detail: (id: number) => ['users', 'detail', id] as const,
  },
  queues: ['queues'] as const,
  settings: ['settings'] as const,
  /** Connections (features/connections, the drawer badge and the sandbox page). */
  whatsapps: ['whatsapps'] as const,
  contacts: {
    all: ['contacts'] as const,
    lists: ['contacts', 'list'] as const,
    list: (searchParam: string) => ['contacts', 'list', searchParam] as const,
    detail: (id: number) => ['contacts', 'detail', id] as const,
  },
  /** One level of a queue's options tree (parentId null: the first level). */
  queueOptions: (queueId: number, parentId: number | null) => ['queueOptions', queueId, parentId ?? 'root'] as const,
  tags: {
    all: ['tags'] as const,
    lists: ['tags', 'list'] as const,
    list: (searchParam: string) => ['tags', 'list', searchParam] as const,
  },
  quickMessages: {
    all: ['quickMessages'] as const,
    lists: ['quickMessages', 'list'] as const,
    list: (searchParam: string) => ['quickMessages', 'list', searchParam] as const,
  },
  /** Scheduled messages (features/schedules). */
  schedules: {
    all: ['schedules'] as const,
    lists: ['schedules', 'list'] as const,
    list: (searchParam: string) => ['schedules', 'list', searchParam] as const,
    contact: (id: number) => ['schedules', 'contact', id] as const,
  },
  /** File lists (features/files; read by campaigns and tickets too). */
  fileLists: {
    all: ['fileLists'] as const,
    lists: ['fileLists', 'list'] as const,
    list: (searchParam: string) => ['fileLists', 'list', searchParam] as const,
  },
  /** Queue integrations (features/queue-integrations): the page's lists and the pickers' plain list. */
  queueIntegrations: {
    all: ['queueIntegrations'] as const,
    lists: ['queueIntegrations', 'list'] as const,
    list: (searchParam: string) => ['queueIntegrations', 'list', searchParam] as const,
    detail: (id: number) => ['queueIntegrations', 'detail', id] as const,
    /** GET /queueIntegration without a query: every integration (connection and queue dialogs). */
    options: ['queueIntegrations', 'options'] as const,
  },
  /** Contact lists (features/contact-lists; read by campaigns too). */
  contactLists: {
    all: ['contactLists'] as const,
    lists: ['contactLists', 'list'] as const,
    list: (searchParam: string) => ['contactLists', 'list', searchParam] as const,
    detail: (id: number) => ['contactLists', 'detail', id] as const,
  },
  /** The items of one contact list, by list and search. */
  contactListItems: {
    all: ['contactListItems'] as const,
    of: (contactListId: number) => ['contactListItems', contactListId] as const,
    list: (contactListId: number, searchParam: string) => ['contactListItems', contactListId, searchParam] as const,
  },
  /** The super user's administration (settings tabs Empresas, Planos, Ajuda) and the /helps page. */
  admin: {
    companies: ['companies', 'list'] as const,
    plans: ['plans'] as const,
  },
  helps: ['helps'] as const,
  announcements: {
    all: ['announcements'] as const,
    /** The super user's page (every announcement, searched). */
    lists: ['announcements', 'list'] as const,
    list: (searchParam: string) => ['announcements', 'list', searchParam] as const,
    /** The top bar's popover: the active ones. */
    active: ['announcements', 'active'] as const,
  },
  /** The admins' dashboard (features/dashboard), one entry per period asked. */
  dashboard: {
    all: ['dashboard'] as const,
    period: (query: object) => ['dashboard', query] as const,
  },
  sandboxOutbound: (whatsappId: number, number: string) => ['sandbox', 'outbound', whatsappId, number] as const,
  /** A user's avatar or a contact's picture, fetched with the token (components/PersonAvatar). */
  picture: (url: string) => ['picture', url] as const,
  /** The tickets screen (features/tickets). */
  tickets: {
    all: ['tickets'] as const,
    lists: ['tickets', 'list'] as const,
    list: (filter: object) => ['tickets', 'list', filter] as const,
    /** The top bar's notifications list (not a ticket list: live list patches leave it alone). */
    notifications: ['tickets', 'notifications'] as const,
    details: ['tickets', 'detail'] as const,
    detail: (uuid: string) => ['tickets', 'detail', uuid] as const,
    notes: (contactId: number, ticketId: number) => ['tickets', 'notes', contactId, ticketId] as const,
    contact: (id: number) => ['tickets', 'contact', id] as const,
    contactOptions: (name: string) => ['tickets', 'contactOptions', name] as const,
    tagOptions: ['tickets', 'tagOptions'] as const,
    userOptions: ['tickets', 'userOptions'] as const,
    whatsappOptions: ['tickets', 'whatsappOptions'] as const,
  },
  /** Billing (features/billing): the invoices list, the plans offered at checkout, the company's billing data. */
  billing: {
    invoices: ['invoices'] as const,
    invoiceLists: ['invoices', 'list'] as const,
    invoiceList: (searchParam: string) => ['invoices', 'list', searchParam] as const,
    /** GET /plans/list (under `plans`, so the plans admin's invalidation refreshes it too). */
    plans: ['plans', 'offered'] as const,
    company: (id: number) => ['companies', 'detail', id] as const,
  },
  /** Messages of a ticket's chat (features/messages). */
  messages: {
    all: ['messages'] as const,
    list: (ticketId: number) => ['messages', 'list', ticketId] as const,
    media: (url: string) => ['messages', 'media', url] as const,
    quickReplies: ['messages', 'quickReplies'] as const,
  },
};
