import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { DEFAULT_QUEUE_SCHEDULES } from '../queues/queueForm';
import SettingsPage from './SettingsPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const company = {
  id: 1,
  name: 'Acme',
  schedules: DEFAULT_QUEUE_SCHEDULES.map((d) => (d.weekdayEn === 'monday' ? { ...d, startTime: '09:00' } : d)),
};
const settings = [{ key: 'scheduleType', value: 'company' }];

describe('Horários tab', () => {
  it('loads the company week, edits a day (an invalid time blocks saving) and saves the 7 days', async () => {
    const api = mockApi({
      'GET /settings': () => settings,
      'GET /companies/1': () => company,
      'PUT /companies/1/schedules': (body) => ({ ...company, ...(body as object) }),
    });
    renderWithProviders(<SettingsPage />);

    await userEvent.click(await screen.findByTestId('settings-tab-schedules'));
    await screen.findByTestId('company-hours-tab');
    const start = (await screen.findByTestId('company-hours-start-monday')) as HTMLInputElement;
    await waitFor(() => expect(start.value).toBe('09:00'));
    expect((screen.getByTestId('company-hours-end-sunday') as HTMLInputElement).value).toBe('00:00');

    const end = screen.getByTestId('company-hours-end-friday');
    await userEvent.clear(end);
    await userEvent.type(end, '1730');
    expect((end as HTMLInputElement).value).toBe('17:30');
    const tuesday = screen.getByTestId('company-hours-start-tuesday');
    await userEvent.clear(tuesday);
    await userEvent.type(tuesday, '2599');
    expect((screen.getByTestId('company-hours-save') as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(tuesday);
    await userEvent.type(tuesday, '0800');
    expect((screen.getByTestId('company-hours-save') as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(screen.getByTestId('company-hours-save'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação atualizada com sucesso.'));
    const [sent] = api.calls('PUT /companies/1/schedules') as { schedules: { weekdayEn: string }[] }[];
    expect(sent.schedules).toHaveLength(7);
    expect(sent.schedules.map((d) => d.weekdayEn)).toEqual(DEFAULT_QUEUE_SCHEDULES.map((d) => d.weekdayEn));
    expect(sent.schedules[0]).toMatchObject({ weekdayEn: 'monday', startTime: '09:00', endTime: '18:00' });
    expect(sent.schedules[4]).toMatchObject({ weekdayEn: 'friday', startTime: '08:00', endTime: '17:30' });
  });

  it('plain users see the week read-only', async () => {
    mockApi({ 'GET /settings': () => settings, 'GET /companies/1': () => company });
    renderWithProviders(<SettingsPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    await userEvent.click(await screen.findByTestId('settings-tab-schedules'));
    const start = (await screen.findByTestId('company-hours-start-monday')) as HTMLInputElement;
    await waitFor(() => expect(start.value).toBe('09:00'));
    expect(start.disabled).toBe(true);
    expect(screen.queryByTestId('company-hours-save')).toBeNull();
  });
});
