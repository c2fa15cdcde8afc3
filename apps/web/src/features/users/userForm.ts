import {
  emailField,
  msg,
  nameField,
  PASSWORD_LENGTH,
  passwordField,
  profileEnum,
  type User,
  type UserInput,
  type UserUpdate,
} from '@balcao/shared';
import { z } from 'zod';

/** The user dialog's form, built from the shared field rules and the spec's messages (spec §5). */
export function userFormSchema(mode: 'create' | 'edit') {
  return z.object({
    name: nameField(),
    email: emailField(),
    password:
      mode === 'create'
        ? z.string().min(1, msg.required).pipe(passwordField())
        : z
            .string()
            .max(PASSWORD_LENGTH.max, msg.tooLong)
            .refine((p) => p === '' || p.length >= PASSWORD_LENGTH.min, msg.tooShort),
    profile: profileEnum,
    limitAttendance: z.number({ error: msg.required }).int().min(0).max(1000),
    queueIds: z.array(z.number()),
    allTicket: z.enum(['enable', 'disable']),
  });
}

export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;

export const emptyUserForm: UserFormValues = {
  name: '',
  email: '',
  password: '',
  profile: 'user',
  limitAttendance: 0,
  queueIds: [],
  allTicket: 'disable',
};

export function userToForm(user: User): UserFormValues {
  return {
    name: user.name,
    email: user.email,
    password: '',
    profile: user.profile,
    limitAttendance: user.limitAttendance,
    queueIds: user.queues.map((q) => q.id),
    allTicket: user.allTicket,
  };
}

export function createUserBody(values: UserFormValues): UserInput {
  return { ...values, whatsappId: null };
}

/**
 * PUT /users/:id body. An admin sends every field; a plain user editing themselves sends only
 * name, e-mail and password. An empty password keeps the current one.
 */
export function updateUserBody(values: UserFormValues, manage: boolean): UserUpdate {
  const own: UserUpdate = { name: values.name, email: values.email, password: values.password };
  if (!manage) return own;
  return {
    ...own,
    profile: values.profile,
    limitAttendance: values.limitAttendance,
    queueIds: values.queueIds,
    allTicket: values.allTicket,
  };
}
