import type { Invoice, SubscriptionReply } from '@balcao/shared';

/** An open invoice of company 1, due far in the future ("Em Aberto" whatever the day). */
export function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 1,
    companyId: 1,
    detail: 'Plano Básico - janeiro/2099',
    value: 99.9,
    dueDate: '2099-01-10',
    status: 'open',
    paidAt: null,
    createdAt: '2098-12-10T12:00:00.000Z',
    ...overrides,
  };
}

/** The sandbox provider's Pix charge of invoice 1. */
export function charge(overrides: Partial<SubscriptionReply> = {}): SubscriptionReply {
  const code =
    '00020101021226850014br.gov.bcb.pix2563sandbox.balcao.test/pix/tx-1520400005303986540599.905802BR6304ABCD';
  return {
    qrcode: { qrcode: code },
    copyPaste: code,
    valor: { original: '99.90' },
    txid: 'tx-1',
    expiresAt: '2099-01-05T15:00:00.000Z',
    sandbox: true,
    ...overrides,
  };
}
