import { companyEvent } from '@balcao/shared';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import ContactsPage from './ContactsPage';
import { contact } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();

const contacts = [contact({ id: 1, name: 'Maria' }), contact({ id: 2, name: 'João', number: '5511988887777' })];

function renderPage(ticketReply: () => unknown, user = sessionUser({ id: 7 })) {
  const api = mockApi({
    'GET /contacts': () => ({ contacts, count: 2, hasMore: false }),
    'POST /tickets': ticketReply,
  });
  renderWithProviders(
    <Routes>
      <Route path="/contacts" element={<ContactsPage />} />
      <Route path="/tickets/:uuid" element={<span data-testid="ticket-page">ticket</span>} />
    </Routes>,
    { path: '/contacts', auth: authValue({ user }) },
  );
  return api;
}

describe('ContactsPage', () => {
  it('starts a ticket with the first queue of the user and opens it', async () => {
    const user = sessionUser({ id: 7, profile: 'user', queues: [{ id: 4, name: 'Vendas', color: '#000' }] });
    const api = renderPage(() => ({ status: 201, body: { id: 10, uuid: 'abc' } }), user);
    await userEvent.click(await screen.findByTestId('contact-ticket-2'));
    expect(await screen.findByTestId('ticket-page')).toBeTruthy();
    expect(api.calls('POST /tickets')).toEqual([{ contactId: 2, queueId: 4, status: 'open' }]);
    expect(screen.queryByTestId('contact-delete-2')).toBeNull();
  });

  it('opens the existing ticket when it is the user’s own, else names its user and queue', async () => {
    let owner = 7;
    renderPage(() => ({
      status: 409,
      body: {
        error: 'ERR_OTHER_OPEN_TICKET',
        ticketId: 3,
        ticketUuid: 'own',
        userId: owner,
        userName: 'Rui',
        queueName: 'Suporte',
      },
    }));
    owner = 8;
    await userEvent.click(await screen.findByTestId('contact-ticket-1'));
    await waitFor(() =>
      expect(toast.warning).toHaveBeenCalledWith(
        'Já existe um atendimento aberto para este contato com Rui na fila Suporte.',
        expect.any(Object),
      ),
    );
    owner = 7;
    await userEvent.click(screen.getByTestId('contact-ticket-1'));
    expect(await screen.findByTestId('ticket-page')).toBeTruthy();
  });

  it('lets admins delete and follows live contact events', async () => {
    const api = mockApi({
      'GET /contacts': () => ({ contacts, count: 2, hasMore: false }),
      'DELETE /contacts/1': () => ({ message: 'ok' }),
    });
    renderWithProviders(<ContactsPage />);
    await userEvent.click(await screen.findByTestId('contact-delete-1'));
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('DELETE /contacts/1')).toHaveLength(1));

    emitSocket(companyEvent.contact(1), { action: 'update', contact: contact({ id: 9, name: 'Novo' }) });
    expect(await screen.findByTestId('contact-row-9')).toBeTruthy();
    emitSocket(companyEvent.contact(1), { action: 'delete', contactId: 2 });
    await waitFor(() => expect(screen.queryByTestId('contact-row-2')).toBeNull());
  });
});
