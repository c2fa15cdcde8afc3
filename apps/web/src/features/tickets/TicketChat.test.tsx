import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { TicketChat } from './TicketChat';
import { LocationProbe, ticket } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () =>
  import('./testing').then((m) => ({ useSocketEvent: m.useFakeSocketEvent })),
);

const UUID = '00000000-0000-4000-8000-000000000001';

function renderChat(uuid = UUID) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/tickets/:ticketId" element={<TicketChat uuid={uuid} />} />
        <Route path="/tickets" element={<span>lista</span>} />
      </Routes>
      <LocationProbe />
    </>,
    { path: `/tickets/${uuid}` },
  );
}

describe('TicketChat', () => {
  it('tells "Acesso não permitido" and goes back to /tickets on 403', async () => {
    mockApi({ [`GET /tickets/u/${UUID}`]: () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION' } }) });
    renderChat();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(toast.error).toHaveBeenCalledWith('Acesso não permitido', expect.any(Object));
  });

  it('tells that no ticket has this id and goes back to /tickets when it does not exist or was deleted', async () => {
    mockApi({ [`GET /tickets/u/${UUID}`]: () => ({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } }) });
    renderChat();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(toast.error).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith('Nenhum atendimento encontrado com este ID.', expect.any(Object));
    expect(screen.getByText('lista')).toBeTruthy();
  });

  it('treats a malformed link (400) as a ticket that does not exist', async () => {
    mockApi({ 'GET /tickets/u/nao-existe': () => ({ status: 400, body: { error: 'ERR_VALIDATION' } }) });
    renderChat('nao-existe');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(toast.error).toHaveBeenCalledWith('Nenhum atendimento encontrado com este ID.', expect.any(Object));
  });

  it('shows the header, the messages and the composer of an open ticket', async () => {
    const open = ticket({ id: 1, uuid: UUID });
    mockApi({
      [`GET /tickets/u/${UUID}`]: () => ({ status: 200, body: open }),
      'GET /messages/1': () => ({ messages: [], count: 0, hasMore: false }),
      'GET /tags/list': () => [],
      'GET /quick-messages/list': () => [],
    });
    renderChat();
    expect(await screen.findByTestId('ticket-header')).toBeTruthy();
    expect(screen.getByTestId('resolve-button')).toBeTruthy();
    expect(screen.getByTestId('message-input')).toBeTruthy();
    expect(await screen.findByTestId('conversation-start')).toBeTruthy();
  });
});
