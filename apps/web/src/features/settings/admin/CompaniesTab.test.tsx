import type { Company } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../../../test/fixtures';
import { mockApi } from '../../../test/mockApi';
import { authValue, renderWithProviders } from '../../../test/render';
import { fastUser, fill as fillField } from '../../connections/testing/user';
import { CompaniesTab } from './CompaniesTab';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (testId: string, text: string) => fillField(userEvent, screen.getByTestId(testId), text);

/** The ISO date `days` from today (the row colours count from the real today). */
const inDays = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const company = (over: Partial<Company>): Company => ({
  id: 2,
  name: 'Padaria',
  email: 'dono@padaria.test',
  phone: '5511999990000',
  status: true,
  planId: 1,
  plan: { id: 1, name: 'Básico' },
  dueDate: null,
  recurrence: 'MENSAL',
  trialExpiration: null,
  campaignsEnabled: false,
  createdAt: '2024-01-02T10:00:00.000Z',
  schedules: [],
  ...over,
});

const superUser = authValue({ user: sessionUser({ super: true, companyId: 1 }) });
const plans = () => [plan({ id: 1, name: 'Básico' }), plan({ id: 3, name: 'Pro' })];

describe('CompaniesTab', () => {
  it('colours the rows by due date as the spec says', async () => {
    mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => [
        company({ id: 10, name: 'Cinco dias', dueDate: inDays(5) }),
        company({ id: 11, name: 'Quatro dias', dueDate: inDays(4) }),
        company({ id: 12, name: 'Hoje', dueDate: inDays(0) }),
        company({ id: 13, name: 'Três atrás', dueDate: inDays(-3) }),
        company({ id: 14, name: 'Quatro atrás', dueDate: inDays(-4) }),
        company({ id: 15, name: 'Cinco atrás', dueDate: inDays(-5) }),
        company({ id: 16, name: 'Seis dias', dueDate: inDays(6) }),
        company({ id: 17, name: 'Sem data', dueDate: null }),
      ],
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });
    const tone = async (id: number) => (await screen.findByTestId(`company-row-${id}`)).getAttribute('data-due-tone');
    expect(await tone(10)).toBe('soon');
    for (const id of [11, 12, 13]) expect(await tone(id)).toBe('warning');
    expect(await tone(14)).toBe('overdue');
    for (const id of [15, 16, 17]) expect(await tone(id)).toBe('none');
    const background = (id: number) => getComputedStyle(screen.getByTestId(`company-row-${id}`)).backgroundColor;
    expect(background(10)).toBe('rgb(255, 254, 173)');
    expect(background(12)).toBe('rgb(247, 204, 143)');
    expect(background(14)).toBe('rgb(250, 140, 140)');
    const [y, m, d] = inDays(5).split('-');
    expect(screen.getByTestId('company-due-10').textContent).toBe(`${d}/${m}/${y}`);
  });

  it('creates a company with its first admin, recurrence MENSAL and a null empty due date', async () => {
    const api = mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => [],
      'POST /companies': (body) => ({ status: 201, body: company({ id: 9, ...(body as object) }) }),
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });

    await userEvent.click(await screen.findByTestId('company-submit'));
    expect(await screen.findAllByText('Obrigatório')).not.toHaveLength(0);
    expect(api.calls('POST /companies')).toHaveLength(0);

    await fill('company-name', 'Padaria Central');
    await fill('company-email', 'Dono@Padaria.test');
    await fill('company-phone', '5511999990000');
    await userEvent.click(screen.getByRole('combobox', { name: 'Plano' }));
    await userEvent.click(await screen.findByTestId('company-plan-option-3'));
    // Only MENSAL is offered.
    await userEvent.click(screen.getByRole('combobox', { name: 'Recorrência' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Mensal']);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByTestId('company-campaigns'));
    await fill('company-admin-name', 'Joana Lima');
    await fill('company-password', 'pao-quente');
    await userEvent.click(screen.getByTestId('company-submit'));

    await waitFor(() => expect(api.calls('POST /companies')).toHaveLength(1));
    expect(api.calls('POST /companies')[0]).toEqual({
      name: 'Padaria Central',
      email: 'dono@padaria.test',
      phone: '5511999990000',
      planId: 3,
      status: true,
      campaignsEnabled: true,
      dueDate: null,
      recurrence: 'MENSAL',
      password: 'pao-quente',
      adminName: 'Joana Lima',
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
    // The form is empty again, ready for the next company.
    await waitFor(() => expect((screen.getByTestId('company-name') as HTMLInputElement).value).toBe(''));
  });

  it('loads a row into the form with the edit icon, extends the due date by the recurrence and saves', async () => {
    const api = mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => [company({ id: 2, dueDate: '2024-01-31', campaignsEnabled: true })],
      'PUT /companies/2': (body) => ({ status: 200, body: company({ id: 2, ...(body as object) }) }),
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });

    await userEvent.click(await screen.findByTestId('company-edit-2'));
    await waitFor(() => expect((screen.getByTestId('company-name') as HTMLInputElement).value).toBe('Padaria'));
    expect((screen.getByTestId('company-due-date') as HTMLInputElement).value).toBe('2024-01-31');
    // Editing: no admin fields, the save and delete buttons.
    expect(screen.queryByTestId('company-password')).toBeNull();
    expect(screen.getByTestId('company-submit').textContent).toBe('Salvar');

    await userEvent.click(screen.getByTestId('company-extend-due-date'));
    expect((screen.getByTestId('company-due-date') as HTMLInputElement).value).toBe('2024-02-29');
    await userEvent.click(screen.getByTestId('company-extend-due-date'));
    expect((screen.getByTestId('company-due-date') as HTMLInputElement).value).toBe('2024-03-29');
    await userEvent.click(screen.getByTestId('company-submit'));

    await waitFor(() => expect(api.calls('PUT /companies/2')).toHaveLength(1));
    expect(api.calls('PUT /companies/2')[0]).toMatchObject({
      name: 'Padaria',
      dueDate: '2024-03-29',
      recurrence: 'MENSAL',
      campaignsEnabled: true,
      planId: 1,
    });
    expect(api.calls('PUT /companies/2')[0]).not.toHaveProperty('password');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
  });

  it('sends a cleared due date as null and keeps a stored recurrence other than MENSAL', async () => {
    const api = mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => [company({ id: 2, dueDate: '2024-05-10', recurrence: 'ANUAL' })],
      'PUT /companies/2': (body) => ({ status: 200, body: company({ id: 2, ...(body as object) }) }),
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });
    await userEvent.click(await screen.findByTestId('company-edit-2'));
    await waitFor(() => expect((screen.getByTestId('company-due-date') as HTMLInputElement).value).toBe('2024-05-10'));
    await userEvent.click(screen.getByTestId('company-extend-due-date'));
    expect((screen.getByTestId('company-due-date') as HTMLInputElement).value).toBe('2025-05-10');
    fireEvent.change(screen.getByTestId('company-due-date'), { target: { value: '' } });
    await userEvent.click(screen.getByTestId('company-submit'));
    await waitFor(() => expect(api.calls('PUT /companies/2')).toHaveLength(1));
    expect(api.calls('PUT /companies/2')[0]).toMatchObject({ dueDate: null, recurrence: 'ANUAL' });
  });

  it("shows the spec's save failure and the server's reason under the field", async () => {
    mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => [company({ id: 2 })],
      'PUT /companies/2': () => ({ status: 409, body: { error: 'ERR_DUPLICATED_NAME', message: 'taken' } }),
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });
    await userEvent.click(await screen.findByTestId('company-edit-2'));
    await waitFor(() => expect((screen.getByTestId('company-name') as HTMLInputElement).value).toBe('Padaria'));
    await userEvent.click(screen.getByTestId('company-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente',
        expect.anything(),
      ),
    );
    expect(await screen.findByText('Já existe um registro com este nome.')).toBeTruthy();
  });

  it('deletes after confirming, never offers to delete the platform company, and says when deleting fails', async () => {
    const api = mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => [
        company({ id: 1, name: 'Plataforma' }),
        company({ id: 2 }),
        company({ id: 3, name: 'Outra' }),
      ],
      'DELETE /companies/2': () => ({ message: 'ok' }),
      'DELETE /companies/3': () => ({ status: 500, body: { error: 'ERR_INTERNAL', message: 'boom' } }),
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });
    await screen.findByTestId('company-row-1');
    expect(screen.queryByTestId('company-delete-1')).toBeNull();

    await userEvent.click(screen.getByTestId('company-delete-2'));
    expect(within(screen.getByTestId('confirmation-modal')).getByText('Excluir a empresa Padaria?')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('DELETE /companies/2')).toHaveLength(1));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));

    await userEvent.click(screen.getByTestId('company-delete-3'));
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Não foi possível realizar a operação', expect.anything()),
    );
  });

  it("shows the spec's load failure", async () => {
    mockApi({
      'GET /plans/all': plans,
      'GET /companies/list': () => ({ status: 500, body: { error: 'ERR_INTERNAL' } }),
    });
    renderWithProviders(<CompaniesTab />, { auth: superUser });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Não foi possível carregar a lista de registros', expect.anything()),
    );
  });
});
