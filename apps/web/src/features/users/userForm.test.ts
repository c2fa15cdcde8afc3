import { describe, expect, it } from 'vitest';
import { emptyUserForm, updateUserBody, userFormSchema } from './userForm';

/** The first message per field, as react-hook-form shows it. */
function errors(mode: 'create' | 'edit', values: Partial<typeof emptyUserForm>) {
  const result = userFormSchema(mode).safeParse({ ...emptyUserForm, ...values });
  const first: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) first[issue.path.join('.')] ??= issue.message;
  return first;
}

const valid = { name: 'Ana Souza', email: 'Ana@Acme.test', password: 'secret' };

describe('userFormSchema', () => {
  it('accepts a valid user and lower-cases the e-mail', () => {
    expect(userFormSchema('create').parse({ ...emptyUserForm, ...valid }).email).toBe('ana@acme.test');
  });

  it('reports the spec messages for the name', () => {
    expect(errors('create', { ...valid, name: '' }).name).toBe('Obrigatório');
    expect(errors('create', { ...valid, name: 'A' }).name).toBe('Muito curto!');
    expect(errors('create', { ...valid, name: 'A'.repeat(51) }).name).toBe('Muito longo!');
  });

  it('reports an invalid e-mail', () => {
    expect(errors('create', { ...valid, email: 'ana@' }).email).toBe('E-mail inválido');
  });

  it('requires a 5 to 50 character password on create', () => {
    expect(errors('create', { ...valid, password: '' }).password).toBe('Obrigatório');
    expect(errors('create', { ...valid, password: '1234' }).password).toBe('Muito curto!');
    expect(errors('create', { ...valid, password: 'x'.repeat(51) }).password).toBe('Muito longo!');
  });

  it('makes the password optional on edit but still checks its length', () => {
    expect(errors('edit', { ...valid, password: '' })).toEqual({});
    expect(errors('edit', { ...valid, password: '123' }).password).toBe('Muito curto!');
  });
});

describe('updateUserBody', () => {
  const values = { ...emptyUserForm, ...valid, profile: 'admin' as const, queueIds: [1, 2], limitAttendance: 3 };

  it('sends only name, e-mail and password for a plain user', () => {
    expect(updateUserBody(values, false)).toEqual({ name: 'Ana Souza', email: 'Ana@Acme.test', password: 'secret' });
  });

  it('sends profile, queues and limits for an admin', () => {
    expect(updateUserBody(values, true)).toMatchObject({ profile: 'admin', queueIds: [1, 2], limitAttendance: 3 });
  });
});
