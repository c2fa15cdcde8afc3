import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { NewTicketModal, otherOpenTicketOutcome } from './NewTicketModal';
import { LocationProbe } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const taken = (userId: number | null) =>
  new ApiError(409, {
    error: 'ERR_OTHER_OPEN_TICKET',
    ticketId: 4,
    ticketUuid: 'uuid-4',
    userId,
    userName: 'Bruno',
    queueName: 'Suporte',
  });

describe('otherOpenTicketOutcome', () => {
  it('opens the existing ticket when it is the current user’s', () => {
    expect(otherOpenTicketOutcome(taken(7), 7)).toEqual({ open: 'uuid-4' });
  });

  it('names the user and queue holding it otherwise', () => {
    expect(otherOpenTicketOutcome(taken(9), 7)).toEqual({ notice: { user: 'Bruno', queue: 'Suporte' } });
  });

  it('is not about other errors', () => {
    expect(otherOpenTicketOutcome(new ApiError(400, { error: 'ERR_QUEUE_REQUIRED' }), 7)).toBeNull();
  });
});

describe('NewTicketModal', () => {
  it('searches contacts from 3 characters and shows who holds an existing open ticket', async () => {
    const api = mockApi({
      'GET /queue': () => [{ id: 1, name: 'Vendas', color: '#7C3AED' }],
      'GET /whatsapp': () => [],
      'GET /contacts/list': () => [{ id: 5, name: 'Maria', number: '5511999990000', email: '' }],
      'POST /tickets': () => ({ status: 409, body: taken(9).body }),
    });
    renderWithProviders(
      <>
        <NewTicketModal open onClose={vi.fn()} />
        <LocationProbe />
      </>,
      { path: '/tickets' },
    );
    fireEvent.change(screen.getByTestId('new-ticket-contact'), { target: { value: 'Mar' } });
    await userEvent.click(await screen.findByTestId('contact-option-5'));
    expect(api.calls('GET /contacts/list')).toHaveLength(1);
    await userEvent.click(screen.getByTestId('new-ticket-submit'));

    const notice = await screen.findByTestId('other-open-notice');
    expect(notice.textContent).toContain('Bruno');
    expect(notice.textContent).toContain('Suporte');
    expect(api.calls('POST /tickets')).toEqual([
      { contactId: 5, queueId: null, whatsappId: null, userId: 7, status: 'open' },
    ]);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
  });
});
