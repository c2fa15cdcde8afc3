import { CHECKOUT_COUNTRIES, checkoutMsg, msg, type Plan, subscriptionInput } from '@balcao/shared';
import { z } from 'zod';
import type { SubscriptionBody } from './billingApi';

export type CheckoutCountry = (typeof CHECKOUT_COUNTRIES)[number];

const isCountry = (value: string): boolean => (CHECKOUT_COUNTRIES as readonly string[]).includes(value);
const optional = z.string().trim().max(200, msg.tooLong);

/**
 * The checkout's form (spec part 2 §5): the first step's required fields with the spec's messages
 * (the shared schema's), the country BR or usa, and the plan picked in the second step.
 */
export const checkoutFormSchema = z.object({
  firstName: subscriptionInput.shape.firstName,
  lastName: optional,
  address2: subscriptionInput.shape.address2,
  city: subscriptionInput.shape.city,
  state: optional,
  zipcode: subscriptionInput.shape.zipcode,
  country: z.string().refine(isCountry, checkoutMsg.country),
  useAddressForPaymentDetails: z.boolean(),
  planId: z.number().nullable(),
});
export type CheckoutFormValues = z.infer<typeof checkoutFormSchema>;

/** The fields of the first step ("Dados"), validated before moving on. */
export const DATA_FIELDS = [
  'firstName',
  'lastName',
  'address2',
  'city',
  'state',
  'zipcode',
  'country',
] as const satisfies readonly (keyof CheckoutFormValues)[];

export function emptyCheckoutForm(planId: number | null): CheckoutFormValues {
  return {
    firstName: '',
    lastName: '',
    address2: '',
    city: '',
    state: '',
    zipcode: '',
    country: '',
    useAddressForPaymentDetails: false,
    planId,
  };
}

/** The i18n key of a checkout message of part 2 §5, or undefined for any other message. */
export function checkoutMessageKey(message: string | undefined): string | undefined {
  const key = (Object.keys(checkoutMsg) as (keyof typeof checkoutMsg)[]).find((k) => checkoutMsg[k] === message);
  return key ? `billing.validation.${key}` : undefined;
}

/**
 * POST /subscription's payload (spec part 2 §3): the billing fields, the plan serialized with its
 * price, users and connections, and the invoice. The server charges the invoice's amount whatever
 * price is sent.
 */
export function subscriptionBody(values: CheckoutFormValues, plan: Plan | null, invoiceId: number): SubscriptionBody {
  const trimmed = checkoutFormSchema.parse(values);
  return {
    firstName: trimmed.firstName,
    lastName: trimmed.lastName,
    address2: trimmed.address2,
    city: trimmed.city,
    state: trimmed.state,
    zipcode: trimmed.zipcode,
    country: trimmed.country as CheckoutCountry,
    useAddressForPaymentDetails: trimmed.useAddressForPaymentDetails,
    ...(plan && {
      plan: JSON.stringify({
        planId: plan.id,
        title: plan.name,
        price: plan.value,
        users: plan.users,
        connections: plan.connections,
      }),
      price: plan.value,
      users: plan.users,
      connections: plan.connections,
    }),
    invoiceId,
  };
}
