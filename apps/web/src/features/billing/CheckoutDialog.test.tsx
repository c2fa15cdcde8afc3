import { type Invoice, SUBSCRIPTION_SUCCESS, type SubscriptionReply } from '@balcao/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plan } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { CheckoutDialog } from './CheckoutDialog';
import { COPY_CONFIRMATION_MS } from './format';
import { charge, invoice } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (testId: string, text: string) => fillField(userEvent, screen.getByTestId(testId), text);
const step = () => screen.getByTestId('checkout-form').dataset.step;

const plans = [
  plan({ id: 1, name: 'Básico', users: 10, connections: 2, value: 99.9 }),
  plan({ id: 2, name: 'Pro', users: 25, connections: 5, value: 199 }),
];

function api(reply: SubscriptionReply = charge()) {
  return mockApi({
    'GET /plans/list': () => plans,
    'POST /subscription': () => reply,
    'POST /sandbox/payments/tx-1/pay': () => ({ message: 'ok' }),
  });
}

function renderDialog(paying: Invoice = invoice({ id: 7, value: 99.9 }), paidDueDate: string | null = null) {
  const onClose = vi.fn();
  const view = renderWithProviders(<CheckoutDialog invoice={paying} paidDueDate={paidDueDate} onClose={onClose} />);
  return { ...view, onClose };
}

/** Fills the first step (Dados) and moves on. */
async function fillData() {
  await fill('checkout-firstName', 'Ana Souza');
  await fill('checkout-address2', 'Rua das Flores, 10');
  await fill('checkout-city', 'Campinas');
  await fill('checkout-state', 'SP');
  await fill('checkout-zipcode', '13000-000');
  await userEvent.click(within(screen.getByTestId('checkout-country')).getByRole('combobox'));
  await userEvent.click(await screen.findByTestId('checkout-country-BR'));
  await userEvent.click(screen.getByTestId('checkout-next'));
  await waitFor(() => expect(step()).toBe('customize'));
}

/** Goes through the three steps, choosing the Pro plan, and submits. */
async function submitCheckout() {
  await fillData();
  await userEvent.click(await screen.findByTestId('checkout-plan-2'));
  await userEvent.click(screen.getByTestId('checkout-next'));
  await userEvent.click(screen.getByTestId('checkout-submit'));
  await screen.findByTestId('checkout-pix');
}

describe('CheckoutDialog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the messages of part 2 §5 and stays on Dados until they are fixed', async () => {
    api();
    renderDialog();
    expect(step()).toBe('data');
    await userEvent.click(screen.getByTestId('checkout-next'));
    for (const message of [
      'O nome completo é obrigatório',
      'O Endereço é obrigatório',
      'Cidade é obrigatória',
      'CEP é obrigatório',
      'País é obrigatório',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(step()).toBe('data');
    // Blank is not a name.
    await fill('checkout-firstName', '   ');
    await userEvent.click(screen.getByTestId('checkout-next'));
    expect(screen.getByText('O nome completo é obrigatório')).toBeTruthy();
    expect(step()).toBe('data');
  });

  it('offers BR and usa, and Enter in a field moves on', async () => {
    api();
    renderDialog();
    await userEvent.click(within(screen.getByTestId('checkout-country')).getByRole('combobox'));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Brasil', 'Estados Unidos']);
    await userEvent.click(screen.getByTestId('checkout-country-usa'));
    await fill('checkout-firstName', 'Ana Souza');
    await fill('checkout-address2', '5th Avenue');
    await fill('checkout-city', 'New York');
    await fill('checkout-zipcode', '10001');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(step()).toBe('customize'));
  });

  it('goes through Dados, Personalizar and Revisar (back allowed) and sends the payload with the invoice', async () => {
    const calls = api();
    renderDialog();
    await fillData();

    // Personalizar: the plans with users, connections and price; the company's plan (1) is chosen.
    expect(((await screen.findByTestId('checkout-plan-1')) as HTMLInputElement).checked).toBe(true);
    const pro = screen.getByTestId('checkout-plan-2').closest('label') as HTMLElement;
    expect(pro.textContent?.replace(/\s/g, ' ')).toBe('ProUsuários: 25 · Conexões: 5R$ 199,00 / mês');
    await userEvent.click(screen.getByTestId('checkout-plan-2'));
    await userEvent.click(screen.getByTestId('checkout-back'));
    expect(step()).toBe('data');
    expect((screen.getByTestId('checkout-firstName') as HTMLInputElement).value).toBe('Ana Souza');
    await userEvent.click(screen.getByTestId('checkout-next'));
    await waitFor(() => expect(step()).toBe('customize'));
    expect((screen.getByTestId('checkout-plan-2') as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByTestId('checkout-next'));

    // Revisar: the summary; the total is the invoice's.
    expect(step()).toBe('review');
    const review = (id: string) => screen.getByTestId(`checkout-review-${id}`).textContent?.replace(/\s/g, ' ');
    expect(review('name')).toBe('Ana Souza');
    expect(review('address')).toBe('Rua das Flores, 10, Campinas, SP, 13000-000, Brasil');
    expect(review('plan')).toBe('Pro · Usuários: 25 · Conexões: 5');
    expect(review('total')).toBe('R$ 99,90');
    expect(calls.calls('POST /subscription')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('checkout-submit'));
    await screen.findByTestId('checkout-pix');
    expect(calls.calls('POST /subscription')).toEqual([
      {
        firstName: 'Ana Souza',
        lastName: '',
        address2: 'Rua das Flores, 10',
        city: 'Campinas',
        state: 'SP',
        zipcode: '13000-000',
        country: 'BR',
        useAddressForPaymentDetails: false,
        plan: JSON.stringify({ planId: 2, title: 'Pro', price: 199, users: 25, connections: 5 }),
        price: 199,
        users: 25,
        connections: 5,
        invoiceId: 7,
      },
    ]);
    expect(toast.success).toHaveBeenCalledWith(SUBSCRIPTION_SUCCESS);
    expect(step()).toBe('pix');
  });

  it('shows the Pix screen: the QR image of the code, the value, and a copy button that says "Copiado!" for 1 s', async () => {
    api();
    renderDialog();
    await submitCheckout();
    const code = charge().copyPaste;
    expect(screen.getByTestId('checkout-pix-code').textContent).toBe(code);
    expect(screen.getByTestId('checkout-pix-value').textContent?.replace(/\s/g, ' ')).toBe('R$ 99,90');
    const image = (await screen.findByTestId('checkout-pix-qr')) as HTMLImageElement;
    expect(image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(image.getAttribute('alt')).toBe('QR code do Pix');

    const copy = screen.getByTestId('checkout-copy');
    expect(copy.textContent).toBe('Copiar código');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(async () => {
      copy.click();
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(copy.textContent).toBe('Copiado!');
    expect(await navigator.clipboard.readText()).toBe(code);
    await act(() => vi.advanceTimersByTimeAsync(COPY_CONFIRMATION_MS - 1));
    expect(copy.textContent).toBe('Copiado!');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(copy.textContent).toBe('Copiar código');
  });

  it('pays a sandbox charge with POST /sandbox/payments/{txid}/pay, and shows the confirmation once paid', async () => {
    const calls = api();
    let markPaid: (dueDate: string) => void = () => undefined;
    function Harness() {
      const [paidDueDate, setPaidDueDate] = useState<string | null>(null);
      markPaid = setPaidDueDate;
      return <CheckoutDialog invoice={invoice({ id: 7 })} paidDueDate={paidDueDate} onClose={vi.fn()} />;
    }
    renderWithProviders(<Harness />);
    await submitCheckout();
    await userEvent.click(screen.getByTestId('checkout-sandbox-pay'));
    await waitFor(() => expect(calls.calls('POST /sandbox/payments/tx-1/pay')).toHaveLength(1));
    expect(await screen.findByTestId('checkout-sandbox-sent')).toBeTruthy();
    expect((screen.getByTestId('checkout-sandbox-pay') as HTMLButtonElement).disabled).toBe(true);

    act(() => markPaid('2099-02-10'));
    expect(screen.getByTestId('checkout-paid').textContent).toBe(
      'Pagamento confirmado! Sua licença vai até 10/02/2099. Redirecionando…',
    );
    expect(screen.queryByTestId('checkout-sandbox-pay')).toBeNull();
  });

  it('has no sandbox button for a real provider, and closes from the Pix screen', async () => {
    api(charge({ sandbox: false }));
    const { onClose } = renderDialog();
    await submitCheckout();
    expect(screen.queryByTestId('checkout-sandbox-pay')).toBeNull();
    await userEvent.click(screen.getByTestId('checkout-close'));
    expect(onClose).toHaveBeenCalled();
  });
});
