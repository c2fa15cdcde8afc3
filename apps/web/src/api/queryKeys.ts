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
};
