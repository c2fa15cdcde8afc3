import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser, fill } from '../connections/testing/user';
import { schedule } from '../schedules/testing';
import { TicketHeader } from './TicketHeader';
import { ticket } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();

describe('TicketHeader, "Agendar"', () => {
  it('schedules a message to the ticket’s contact', async () => {
    const calls = mockApi({
      'GET /whatsapp': () => [],
      'POST /schedules': (body) => ({ status: 201, body: schedule({ id: 9, ...(body as object) }) }),
    });
    renderWithProviders(<TicketHeader ticket={ticket()} onContactClick={vi.fn()} />);
    await userEvent.click(screen.getByTestId('ticket-options-button'));
    const item = await screen.findByTestId('schedule-button');
    expect(item.textContent).toBe('Agendar');
    await userEvent.click(item);
    expect((screen.getByTestId('schedule-contact') as HTMLInputElement).value).toBe('Contato 1');
    await fill(userEvent, screen.getByTestId('schedule-body'), 'Retorno amanhã');
    await userEvent.click(screen.getByTestId('schedule-modal-submit'));
    await waitFor(() => expect(calls.calls('POST /schedules')).toHaveLength(1));
    expect(calls.calls('POST /schedules')[0]).toMatchObject({ contactId: 101, body: 'Retorno amanhã' });
  });

  it('is absent when the plan has no schedules', async () => {
    mockApi({});
    const auth = authValue({
      user: sessionUser({}, { plan: { ...sessionUser().company.plan!, useSchedules: false } }),
    });
    renderWithProviders(<TicketHeader ticket={ticket()} onContactClick={vi.fn()} />, { auth });
    await userEvent.click(screen.getByTestId('ticket-options-button'));
    expect(await screen.findByTestId('transfer-button')).toBeTruthy();
    expect(screen.queryByTestId('schedule-button')).toBeNull();
  });
});
