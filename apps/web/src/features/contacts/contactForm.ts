import { type Contact, type ContactInput, msg, NUMBER_LENGTH, nameField, requiredString } from '@balcao/shared';
import { z } from 'zod';

/** The contact dialog's form (spec §5: name 2 to 50, number 8 to 50, e-mail valid if given). */
export const contactFormSchema = z.object({
  name: nameField(),
  number: requiredString().min(NUMBER_LENGTH.min, msg.tooShort).max(NUMBER_LENGTH.max, msg.tooLong),
  email: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .pipe(z.email({ error: msg.invalidEmail })),
  ]),
  extraInfo: z.array(
    z.object({
      name: z.string().trim().min(1, msg.required).max(100, msg.tooLong),
      value: z.string().max(1000, msg.tooLong),
    }),
  ),
});

export type ContactFormValues = z.infer<typeof contactFormSchema>;
export type ContactFormInput = z.input<typeof contactFormSchema>;

export const emptyContactForm: ContactFormValues = { name: '', number: '', email: '', extraInfo: [] };

export function contactToForm(contact: Contact): ContactFormValues {
  return {
    name: contact.name,
    number: contact.number,
    email: contact.email ?? '',
    extraInfo: (contact.extraInfo ?? []).map(({ name, value }) => ({ name, value })),
  };
}

export function contactBody(values: ContactFormValues): ContactInput {
  return {
    name: values.name,
    number: values.number.replace(/\D/g, ''),
    email: values.email.trim(),
    extraInfo: values.extraInfo,
  };
}
