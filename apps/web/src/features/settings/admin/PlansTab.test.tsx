import { screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../../../test/fixtures';
import { mockApi } from '../../../test/mockApi';
import { authValue, renderWithProviders } from '../../../test/render';
import { fastUser, fill as fillField } from '../../connections/testing/user';
import { PlansTab } from './PlansTab';
import { planBody, planToForm } from './planForm';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (testId: string, text: string) => fillField(userEvent, screen.getByTestId(testId), text);
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const superUser = authValue({ user: sessionUser({ super: true }) });

describe('plan form values', () => {
  it('shows the value with 2 decimals and a comma, and sends it as a number', () => {
    const form = planToForm(plan({ value: 99.9 }));
    expect(form.value).toBe('99,90');
    expect(planBody({ ...form, value: '1234,5' }).value).toBe(1234.5);
    expect(planBody({ ...form, value: '10.25' }).value).toBe(10.25);
  });
});

describe('PlansTab', () => {
  it('lists plans with their value in BRL and their flags', async () => {
    mockApi({ 'GET /plans/all': () => [plan({ id: 4, name: 'Pro', value: 1234.5, useKanban: false })] });
    renderWithProviders(<PlansTab />, { auth: superUser });
    expect((await screen.findByTestId('plan-value-4')).textContent?.replace(/\s/g, ' ')).toBe('R$ 1.234,50');
    expect(screen.getByTestId('plan-useKanban-4').textContent).toBe('Não');
    expect(screen.getByTestId('plan-useCampaigns-4').textContent).toBe('Sim');
  });

  it('creates a plan with limits, a value in reais and some modules off', async () => {
    const api = mockApi({
      'GET /plans/all': () => [],
      'POST /plans': (body) => ({ status: 201, body: plan({ id: 5, ...(body as object) }) }),
    });
    renderWithProviders(<PlansTab />, { auth: superUser });
    await screen.findByTestId('plan-form');
    await fill('plan-name', 'Plano Ouro');
    for (const [field, value] of [
      ['plan-users', '10'],
      ['plan-connections', '3'],
      ['plan-queues', '4'],
    ]) {
      await userEvent.clear(input(field));
      await fill(field, value);
    }
    await userEvent.clear(input('plan-value'));
    await fill('plan-value', '99,999');
    await userEvent.click(screen.getByTestId('plan-submit'));
    expect(await screen.findByText('Informe um valor em reais com até 2 casas decimais')).toBeTruthy();

    await userEvent.clear(input('plan-value'));
    await fill('plan-value', '149,90');
    await userEvent.click(screen.getByTestId('plan-useKanban'));
    await userEvent.click(screen.getByTestId('plan-useOpenAi'));
    await userEvent.click(screen.getByTestId('plan-submit'));

    await waitFor(() => expect(api.calls('POST /plans')).toHaveLength(1));
    expect(api.calls('POST /plans')[0]).toEqual({
      name: 'Plano Ouro',
      users: 10,
      connections: 3,
      queues: 4,
      value: 149.9,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: false,
      useOpenAi: false,
      useIntegrations: true,
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
  });

  it('loads a row into the form with the edit icon and saves it', async () => {
    const api = mockApi({
      'GET /plans/all': () => [plan({ id: 4, name: 'Pro', value: 59, useSchedules: false })],
      'PUT /plans/4': (body) => plan({ id: 4, ...(body as object) }),
    });
    renderWithProviders(<PlansTab />, { auth: superUser });
    await userEvent.click(await screen.findByTestId('plan-edit-4'));
    await waitFor(() => expect(input('plan-name').value).toBe('Pro'));
    expect(input('plan-value').value).toBe('59,00');
    expect(input('plan-useSchedules').checked).toBe(false);
    expect(input('plan-useKanban').checked).toBe(true);
    await userEvent.click(screen.getByTestId('plan-useSchedules'));
    await userEvent.click(screen.getByTestId('plan-submit'));
    await waitFor(() => expect(api.calls('PUT /plans/4')).toHaveLength(1));
    expect(api.calls('PUT /plans/4')[0]).toMatchObject({ name: 'Pro', value: 59, useSchedules: true });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
  });

  it("shows the spec's save failure for a taken name", async () => {
    mockApi({
      'GET /plans/all': () => [],
      'POST /plans': () => ({ status: 409, body: { error: 'ERR_DUPLICATED_NAME', message: 'taken' } }),
    });
    renderWithProviders(<PlansTab />, { auth: superUser });
    await screen.findByTestId('plan-form');
    await fill('plan-name', 'Básico');
    await userEvent.click(screen.getByTestId('plan-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome ou se os campos foram preenchidos corretamente',
        expect.anything(),
      ),
    );
    expect(await screen.findByText('Já existe um registro com este nome.')).toBeTruthy();
  });

  it('deletes after confirming; a plan in use says why it stays', async () => {
    const api = mockApi({
      'GET /plans/all': () => [plan({ id: 4, name: 'Pro' }), plan({ id: 6, name: 'Livre' })],
      'DELETE /plans/4': () => ({ status: 409, body: { error: 'ERR_PLAN_IN_USE', message: 'in use' } }),
      'DELETE /plans/6': () => ({ message: 'ok' }),
    });
    renderWithProviders(<PlansTab />, { auth: superUser });
    await userEvent.click(await screen.findByTestId('plan-delete-4'));
    expect(screen.getByText('Excluir o plano Pro?')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Não foi possível realizar a operação. Este plano está em uso por uma ou mais empresas.',
        expect.anything(),
      ),
    );
    // From the form: load the row, then its delete button.
    await userEvent.click(screen.getByTestId('plan-edit-6'));
    await waitFor(() => expect(input('plan-name').value).toBe('Livre'));
    await userEvent.click(screen.getByTestId('plan-delete'));
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('DELETE /plans/6')).toHaveLength(1));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
    await waitFor(() => expect(input('plan-name').value).toBe(''));
  });
});
