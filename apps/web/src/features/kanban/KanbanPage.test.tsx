import { companyEvent, type Tag, type Ticket } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { toast } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import { ticket } from '../tickets/testing';
import KanbanPage, { dropTarget } from './KanbanPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));
vi.mock('./KanbanChatPanel', () => ({
  KanbanChatPanel: ({ uuid }: { uuid: string }) => <div data-testid="chat-stub">{uuid}</div>,
}));

const userEvent = fastUser();

const lanes: Tag[] = [
  { id: 10, name: 'Negociação', color: '#FF0000', kanban: 1 },
  { id: 20, name: 'Fechamento', color: '#00AA00', kanban: 1 },
];
const plainTag = { id: 30, name: 'VIP', color: '#000000' };
/** The company's queues (`GET /queue`, read for the admin's queue filter). */
const queues = [
  { id: 1, name: 'Vendas', color: '#1565C0' },
  { id: 2, name: 'Suporte', color: '#2E7D32' },
];

/** A small server: each ticket's tags, the lanes read from them as the API does. */
function server(initial: Ticket[], opts: { failPut?: boolean } = {}) {
  const tickets = new Map(initial.map((t) => [t.id, t]));
  const laneIds = new Set(lanes.map((l) => l.id));
  const setLane = (id: number, tagId: number | null) => {
    const current = tickets.get(id);
    if (!current) return;
    const kept = current.tags.filter((g) => !laneIds.has(g.id));
    const lane = lanes.find((l) => l.id === tagId);
    tickets.set(id, { ...current, tags: lane ? [...kept, { id: lane.id, name: lane.name, color: lane.color }] : kept });
  };
  const api = mockApi({});
  api.fetch.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const put = url.pathname.match(/^\/ticket-tags\/(\d+)\/(\d+)$/);
    const del = url.pathname.match(/^\/ticket-tags\/(\d+)$/);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (method === 'PUT' && put) {
      if (opts.failPut) return json(403, { error: 'ERR_NO_PERMISSION' });
      setLane(Number(put[1]), Number(put[2]));
      return json(200, { ticketId: Number(put[1]), tagIds: [Number(put[2])], laneTagId: Number(put[2]) });
    }
    if (method === 'DELETE' && del) {
      setLane(Number(del[1]), null);
      return json(200, { ticketId: Number(del[1]), tagIds: [], laneTagId: null });
    }
    const route = `${method} ${url.pathname}`;
    if (route === 'GET /tags/kanban') return json(200, { lista: lanes });
    if (route === 'GET /queue') return json(200, queues);
    if (route === 'GET /ticket/kanban') {
      const tagId = Number(url.searchParams.get('tagId'));
      const queueIds = JSON.parse(url.searchParams.get('queueIds') ?? 'null') as number[] | null;
      const list = [...tickets.values()].filter((t) => {
        const lane = t.tags.find((g) => laneIds.has(g.id))?.id;
        if (queueIds && t.queueId !== null && !queueIds.includes(t.queueId)) return false;
        return url.searchParams.get('lane') === 'open' ? lane === undefined : lane === tagId;
      });
      return json(200, { tickets: list, count: list.length, hasMore: false });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  const requests = () =>
    api.fetch.mock.calls
      .map(([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`)
      .filter((r) => r.includes('/ticket-tags/'));
  /** The `queueIds` of every lane read, as sent. */
  const laneQueueIds = () =>
    api.fetch.mock.calls
      .map(([input]) => new URL(String(input)))
      .filter((url) => url.pathname === '/ticket/kanban')
      .map((url) => url.searchParams.get('queueIds'));
  return { ...api, requests, laneQueueIds };
}

const inLane = (lane: string | number) => within(screen.getByTestId(`kanban-lane-${lane}`));
const cardIn = async (lane: string | number, id: number) =>
  waitFor(() => expect(inLane(lane).getByTestId(`kanban-card-${id}`)).toBeTruthy());

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

afterEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('KanbanPage', () => {
  it('shows "Em aberto" first, then one lane per kanban tag in its colour, with counts and cards', async () => {
    server([
      ticket({ id: 1, lastMessage: 'Quero um orçamento' }),
      ticket({ id: 2, tags: [plainTag] }),
      ticket({ id: 3, tags: [{ id: 10, name: 'Negociação', color: '#FF0000' }], user: null, queue: null }),
    ]);
    renderWithProviders(<KanbanPage />);
    await cardIn(10, 3);
    const titles = within(screen.getByTestId('kanban-board'))
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent);
    expect(titles).toEqual(['Em aberto', 'Negociação', 'Fechamento']);
    // Each tag lane's header is painted in its tag's colour.
    const headerColour = (lane: number) =>
      getComputedStyle(inLane(lane).getByRole('heading', { level: 2 }).parentElement as HTMLElement).backgroundColor;
    expect(headerColour(10)).toBe('rgb(255, 0, 0)');
    expect(headerColour(20)).toBe('rgb(0, 170, 0)');
    await cardIn('open', 1);
    await cardIn('open', 2);
    expect(screen.getByTestId('kanban-lane-count-open').textContent).toBe('2');
    expect(screen.getByTestId('kanban-lane-count-10').textContent).toBe('1');
    expect(screen.getByTestId('kanban-lane-count-20').textContent).toBe('0');
    const card = within(screen.getByTestId('kanban-card-1'));
    expect(card.getByText('Contato 1')).toBeTruthy();
    expect(card.getByText('Quero um orçamento')).toBeTruthy();
    expect(card.getByText('Vendas')).toBeTruthy();
    expect(card.getByText('Ana Souza')).toBeTruthy();
    expect(within(screen.getByTestId('kanban-card-3')).getByText('Sem fila')).toBeTruthy();
    // Phones: the lanes scroll sideways.
    expect(getComputedStyle(screen.getByTestId('kanban-board')).overflowX).toBe('auto');
  });

  it('a move to a tag lane calls DELETE then PUT and says "Ticket Tag Adicionado com Sucesso!"', async () => {
    const api = server([ticket({ id: 1 })]);
    renderWithProviders(<KanbanPage />);
    await cardIn('open', 1);
    await userEvent.click(screen.getByTestId('kanban-card-menu-1'));
    await userEvent.click(await screen.findByTestId('kanban-move-1-20'));
    await cardIn(20, 1);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Ticket Tag Adicionado com Sucesso!'));
    expect(api.requests()).toEqual(['DELETE /ticket-tags/1', 'PUT /ticket-tags/1/20']);
    expect(inLane('open').queryByTestId('kanban-card-1')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('kanban-lane-count-20').textContent).toBe('1'));
  });

  it('a move back to "Em aberto" calls DELETE only and says "Ticket Tag Removido!"', async () => {
    const api = server([ticket({ id: 1, tags: [{ id: 10, name: 'Negociação', color: '#FF0000' }, plainTag] })]);
    renderWithProviders(<KanbanPage />);
    await cardIn(10, 1);
    await userEvent.click(screen.getByTestId('kanban-card-menu-1'));
    await userEvent.click(await screen.findByTestId('kanban-move-1-open'));
    await cardIn('open', 1);
    expect(api.requests()).toEqual(['DELETE /ticket-tags/1']);
    expect(toast.success).toHaveBeenCalledWith('Ticket Tag Removido!');
    expect(toast.success).not.toHaveBeenCalledWith('Ticket Tag Adicionado com Sucesso!');
  });

  it('a refused move shows the error and puts the card back where the server has it', async () => {
    server([ticket({ id: 1, tags: [{ id: 10, name: 'Negociação', color: '#FF0000' }] })], { failPut: true });
    renderWithProviders(<KanbanPage />);
    await cardIn(10, 1);
    await userEvent.click(screen.getByTestId('kanban-card-menu-1'));
    await userEvent.click(await screen.findByTestId('kanban-move-1-20'));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    // The DELETE went through: the server has the ticket in "Em aberto" (one lane at most).
    await cardIn('open', 1);
    expect(inLane(20).queryByTestId('kanban-card-1')).toBeNull();
  });

  it('moves by other users arrive live (ticketTag and ticket events)', async () => {
    server([ticket({ id: 1 }), ticket({ id: 2 })]);
    renderWithProviders(<KanbanPage />);
    await cardIn('open', 2);
    emitSocket(companyEvent.ticketTag(1), { action: 'update', ticketId: 2, tagIds: [10], laneTagId: 10 });
    await cardIn(10, 2);
    expect(inLane('open').queryByTestId('kanban-card-2')).toBeNull();
    expect(screen.getByTestId('kanban-lane-count-10').textContent).toBe('1');
    emitSocket(companyEvent.ticket(1), {
      action: 'update',
      ticket: ticket({ id: 1, lastMessage: 'Nova', tags: [{ id: 20, name: 'Fechamento', color: '#00AA00' }] }),
    });
    await cardIn(20, 1);
    expect(within(screen.getByTestId('kanban-card-1')).getByText('Nova')).toBeTruthy();
    emitSocket(companyEvent.ticket(1), { action: 'update', ticket: ticket({ id: 1, status: 'closed' }) });
    await waitFor(() => expect(screen.queryByTestId('kanban-card-1')).toBeNull());
    emitSocket(companyEvent.ticket(1), { action: 'delete', ticketId: 2 });
    await waitFor(() => expect(screen.queryByTestId('kanban-card-2')).toBeNull());
  });

  it('shows the queues selected on the tickets page, sends them as queueIds, and changes them from its own filter', async () => {
    localStorage.setItem('selectedQueueIds:7', JSON.stringify([2]));
    const api = server([ticket({ id: 1, queueId: 1 }), ticket({ id: 2, queueId: 2 })]);
    renderWithProviders(<KanbanPage />);
    await cardIn('open', 2);
    expect(screen.queryByTestId('kanban-card-1')).toBeNull();
    expect(new Set(api.laneQueueIds())).toEqual(new Set(['[2]']));
    // A ticket of a queue not shown stays off the board when it changes.
    emitSocket(companyEvent.ticket(1), { action: 'update', ticket: ticket({ id: 1, queueId: 1, lastMessage: 'Oi' }) });
    emitSocket(companyEvent.ticket(1), {
      action: 'update',
      ticket: ticket({ id: 2, queueId: 2, lastMessage: 'Nova' }),
    });
    await waitFor(() => expect(within(screen.getByTestId('kanban-card-2')).getByText('Nova')).toBeTruthy());
    expect(screen.queryByTestId('kanban-card-1')).toBeNull();

    // Vendas shown again from the board: both cards; the choice is the tickets page's too.
    await userEvent.click(within(screen.getByTestId('kanban-queue-select')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('kanban-queue-option-1'));
    await cardIn('open', 1);
    await cardIn('open', 2);
    expect(api.laneQueueIds()).toContain('[1,2]');
    expect(JSON.parse(localStorage.getItem('selectedQueueIds:7') ?? 'null')).toEqual([2, 1]);
  });

  it('a click opens the chat beside the board on wide screens, the ticket page on phones', async () => {
    server([ticket({ id: 1 })]);
    const { unmount } = renderWithProviders(
      <>
        <KanbanPage />
        <Where />
      </>,
      { path: '/kanban' },
    );
    await cardIn('open', 1);
    await userEvent.click(screen.getByTestId('kanban-card-1'));
    expect(screen.getByTestId('where').textContent).toBe(`/tickets/${ticket({ id: 1 }).uuid}`);
    unmount();

    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: true,
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          addListener: () => undefined,
          removeListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    renderWithProviders(<KanbanPage />, { path: '/kanban' });
    await cardIn('open', 1);
    await userEvent.click(screen.getByTestId('kanban-card-1'));
    expect((await screen.findByTestId('chat-stub')).textContent).toBe(ticket({ id: 1 }).uuid);
    await userEvent.click(screen.getByTestId('kanban-chat-close'));
    expect(screen.queryByTestId('chat-stub')).toBeNull();
  });
});

describe('dropTarget', () => {
  const active = (t?: Ticket) => ({ id: 'ticket:1', data: { current: t ? { ticket: t } : undefined }, rect: {} });
  const over = (id: string) => ({ id, rect: {}, data: { current: undefined }, disabled: false });
  it('reads the lane of a drop, and nothing outside the lanes', () => {
    const t = ticket({ id: 1 });
    expect(dropTarget({ active: active(t), over: over('lane:open') } as never)).toEqual({ ticket: t, to: 'open' });
    expect(dropTarget({ active: active(t), over: over('lane:20') } as never)).toEqual({ ticket: t, to: 20 });
    expect(dropTarget({ active: active(t), over: null } as never)).toBeNull();
    expect(dropTarget({ active: active(t), over: over('lane:x') } as never)).toBeNull();
    expect(dropTarget({ active: active(), over: over('lane:20') } as never)).toBeNull();
  });
});
