import { companyEvent, type Schedule } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import SchedulesPage from './SchedulesPage';
import { schedule } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);
/** A schedule has a `status` field: mockApi would read it as the HTTP status. */
const ok = (body: unknown) => ({ status: 200, body });

function api(schedules: Schedule[]) {
  return mockApi({
    'GET /schedules': () => ({ schedules, count: schedules.length, hasMore: false }),
    'GET /whatsapp': () => [{ id: 2, name: 'Loja' }],
    'GET /contacts/3': () => ({ id: 3, name: 'Maria Lima', number: '5511999990000' }),
    'POST /schedules': (body) => ({ status: 201, body: schedule({ id: 5, ...(body as object) }) }),
    'PUT /schedules/1': (body) => ok(schedule({ ...(body as object) })),
    'DELETE /schedules/1': () => ({ message: 'ok' }),
  });
}

describe('SchedulesPage', () => {
  it('shows the table: contact, body cut at 25 characters, date, connection and status', async () => {
    api([
      schedule(),
      schedule({ id: 2, status: 'ERRO', lastError: 'Sem conexão', attempts: 3, whatsapp: null, whatsappId: null }),
    ]);
    renderWithProviders(<SchedulesPage />, { path: '/schedules' });
    expect((await screen.findByTestId('schedule-contact-1')).textContent).toBe('Maria Lima');
    expect(screen.getByTestId('schedule-body-1').textContent).toBe('Lembrete da sua consulta ...');
    expect(screen.getByTestId('schedule-body-1').getAttribute('aria-label')).toBe(
      'Lembrete da sua consulta amanhã às 10h',
    );
    expect(screen.getByTestId('schedule-send-at-1').textContent).toBe('05/01/2026 09:03:07');
    expect(screen.getByTestId('schedule-connection-1').textContent).toBe('Loja');
    expect(screen.getByTestId('schedule-connection-2').textContent).toBe('Padrão');
    expect(screen.getByTestId('schedule-status-1').textContent).toBe('Pendente');
    expect(screen.getByTestId('schedule-status-2').textContent).toBe('Erro');
    expect(screen.getByTestId('schedule-status-2').getAttribute('aria-label')).toBe('Sem conexão (3 tentativas)');
  });

  it('validates and creates a schedule', async () => {
    const calls = api([]);
    renderWithProviders(<SchedulesPage />, { path: '/schedules' });
    await userEvent.click(await screen.findByTestId('schedules-add'));
    const sendAt = screen.getByTestId('schedule-send-at') as HTMLInputElement;
    expect(sendAt.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(Math.abs(new Date(sendAt.value).getTime() - (Date.now() + 3_600_000))).toBeLessThan(120_000);

    await fill(screen.getByTestId('schedule-body'), 'Oi');
    await userEvent.click(screen.getByTestId('schedule-modal-submit'));
    expect(await screen.findByText('Mensagem muito curta')).toBeTruthy();
    expect(screen.getByText('Obrigatório')).toBeTruthy();
    await userEvent.clear(sendAt);
    await userEvent.click(screen.getByTestId('schedule-modal-submit'));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2);
    expect(calls.calls('POST /schedules')).toHaveLength(0);
  });

  it('opens the dialog for ?contactId= and saves it', async () => {
    const calls = api([]);
    renderWithProviders(<SchedulesPage />, { path: '/schedules?contactId=3' });
    const contact = (await screen.findByTestId('schedule-contact')) as HTMLInputElement;
    await waitFor(() => expect(contact.value).toBe('Maria Lima'));
    await fill(screen.getByTestId('schedule-body'), 'Bom dia, tudo certo?');
    await userEvent.click(screen.getByTestId('schedule-modal-submit'));
    await waitFor(() => expect(calls.calls('POST /schedules')).toHaveLength(1));
    const [body] = calls.calls('POST /schedules');
    expect(body).toMatchObject({ contactId: 3, body: 'Bom dia, tudo certo?', whatsappId: null, recurrence: 'none' });
    expect(body.sendAt).toMatch(/Z$/);
    await waitFor(() => expect(screen.queryByTestId('schedule-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Agendamento salvo com sucesso.');
  });

  it('hides save for a sent schedule', async () => {
    api([schedule({ sentAt: '2026-01-05T12:03:07.000Z', status: 'ENVIADA' })]);
    renderWithProviders(<SchedulesPage />, { path: '/schedules' });
    await userEvent.click(await screen.findByTestId('schedule-edit-1'));
    expect(screen.getByTestId('schedule-modal-close')).toBeTruthy();
    expect(screen.queryByTestId('schedule-modal-submit')).toBeNull();
    expect((screen.getByTestId('schedule-body') as HTMLTextAreaElement).disabled).toBe(true);
  });

  it('edits and deletes after confirmation', async () => {
    const calls = api([schedule()]);
    renderWithProviders(<SchedulesPage />, { path: '/schedules' });
    await userEvent.click(await screen.findByTestId('schedule-edit-1'));
    expect(screen.getByTestId('schedule-modal-submit')).toBeTruthy();
    await fill(screen.getByTestId('schedule-body'), '!');
    await userEvent.click(screen.getByTestId('schedule-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /schedules/1')).toHaveLength(1));
    expect(calls.calls('PUT /schedules/1')[0]).toMatchObject({
      contactId: 3,
      body: 'Lembrete da sua consulta amanhã às 10h!',
      whatsappId: 2,
    });
    await waitFor(() => expect(screen.queryByTestId('schedule-modal')).toBeNull());

    await userEvent.click(screen.getByTestId('schedule-delete-1'));
    expect(within(screen.getByTestId('confirmation-modal')).getByText('Excluir agendamento')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls.calls('DELETE /schedules/1')).toHaveLength(1));
  });

  it('applies live events', async () => {
    api([schedule()]);
    renderWithProviders(<SchedulesPage />, { path: '/schedules' });
    await screen.findByTestId('schedule-row-1');
    const event = companyEvent.schedule(1);
    emitSocket(event, {
      action: 'create',
      schedules: schedule({ id: 2, contact: { id: 4, name: 'João', number: '1' } }),
    });
    expect(await screen.findByTestId('schedule-row-2')).toBeTruthy();
    emitSocket(event, { action: 'update', schedules: schedule({ status: 'ENVIADA' }) });
    await waitFor(() => expect(screen.getByTestId('schedule-status-1').textContent).toBe('Enviada'));
    emitSocket(event, { action: 'delete', scheduleId: 1 });
    await waitFor(() => expect(screen.queryByTestId('schedule-row-1')).toBeNull());
  });
});
