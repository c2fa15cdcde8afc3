import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { serverFieldErrors } from './serverFieldErrors';

describe('serverFieldErrors', () => {
  it('maps the body fields and a code known to concern a field', () => {
    const err = new ApiError(400, {
      error: 'ERR_WAPP_GREETING_REQUIRED',
      fields: [{ path: 'name', message: 'too long' }],
    });
    expect(serverFieldErrors(err, { ERR_WAPP_GREETING_REQUIRED: 'greetingMessage' })).toEqual([
      { name: 'name', message: 'too long' },
      { name: 'greetingMessage', message: 'A mensagem de saudação é obrigatória quando há mais de uma fila.' },
    ]);
  });

  it('finds nothing in other errors', () => {
    expect(serverFieldErrors(new Error('x'))).toEqual([]);
    expect(serverFieldErrors(new ApiError(500, { error: 'ERR_INTERNAL' }))).toEqual([]);
  });
});
