import { z } from 'zod';
import { intId, msg, optionalFields, pageQuery } from './common.js';

/** Spec part 2 §5: the checkout's first step. */
export const checkoutMsg = {
  fullName: 'O nome completo é obrigatório',
  address: 'O Endereço é obrigatório',
  city: 'Cidade é obrigatória',
  zipcode: 'CEP é obrigatório',
  country: 'País é obrigatório',
} as const;

/** Spec part 2 §5: the checkout's country choices. */
export const CHECKOUT_COUNTRIES = ['BR', 'usa'] as const;

/** Spec part 2 §8. */
export const SUBSCRIPTION_SUCCESS = 'Assinatura realizada com sucesso!, aguardando a realização do pagamento';

/** An invoice (spec part 2 §3). `status` is 'paid' or 'open'; the display status is computed (part 2 §4). */
export const invoiceSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  detail: z.string(),
  /** BRL, 2 decimals, fixed when the invoice was issued. */
  value: z.number(),
  /** `yyyy-mm-dd`. */
  dueDate: z.string(),
  status: z.enum(['open', 'paid']),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoicesQuery = optionalFields(pageQuery);
export const invoicesReply = z.object({ invoices: z.array(invoiceSchema), hasMore: z.boolean() });
export type InvoicesPage = z.infer<typeof invoicesReply>;

/** Spec part 2 §4: 'Pago', 'Vencido' (unpaid, due before today; the row tinted red) or 'Em Aberto'. */
export function invoiceDisplayStatus(
  invoice: Pick<Invoice, 'status' | 'dueDate'>,
  today: string,
): 'Pago' | 'Vencido' | 'Em Aberto' {
  if (invoice.status === 'paid') return 'Pago';
  return invoice.dueDate < today ? 'Vencido' : 'Em Aberto';
}

const required = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, msg.tooLong);
const optional = z.string().trim().max(200, msg.tooLong).optional().default('');

/**
 * `POST /subscription` (spec part 2 §3). The server reads only the invoice and the billing fields from
 * it: the price, the plan and the card fields the browser sends are never trusted nor stored (DOMAIN §18).
 */
export const subscriptionInput = z.object({
  firstName: required(checkoutMsg.fullName),
  lastName: optional,
  address2: required(checkoutMsg.address),
  city: required(checkoutMsg.city),
  state: optional,
  zipcode: required(checkoutMsg.zipcode),
  country: z.enum(CHECKOUT_COUNTRIES, { error: checkoutMsg.country }),
  useAddressForPaymentDetails: z.boolean().optional(),
  nameOnCard: z.string().max(200).optional(),
  cardNumber: z.string().max(40).optional(),
  cvv: z.string().max(10).optional(),
  plan: z.unknown().optional(),
  price: z.unknown().optional(),
  users: z.unknown().optional(),
  connections: z.unknown().optional(),
  invoiceId: intId(msg.required),
});
export type SubscriptionInput = z.infer<typeof subscriptionInput>;

/** The Pix charge of an invoice: `qrcode` is the copy-and-paste code the QR image encodes. */
export const subscriptionReply = z.object({
  qrcode: z.object({ qrcode: z.string() }),
  /** The same code, for the copy button. */
  copyPaste: z.string(),
  valor: z.object({ original: z.string() }),
  txid: z.string(),
  expiresAt: z.string(),
  /** The sandbox provider only: its charge can be paid from the checkout (`POST /sandbox/payments/{txid}/pay`). */
  sandbox: z.boolean(),
});
export type SubscriptionReply = z.infer<typeof subscriptionReply>;

/** The live `company-{id}-payment` event when an invoice is settled. */
export const paymentEvent = z.object({
  action: z.literal('CONCLUIDA'),
  company: z.object({ id: z.number(), dueDate: z.string() }),
  invoiceId: z.number(),
});
export type PaymentEvent = z.infer<typeof paymentEvent>;
