import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http';
import i18n from '../i18n';
import { errorMessage, toastError } from './toastError';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn() } }));

describe('errorMessage', () => {
  it('translates a known backend error code', () => {
    const err = new ApiError(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'Invalid credentials' });
    expect(errorMessage(err)).toBe('Erro de autenticação. Por favor, tente novamente.');
  });

  it('interpolates the expired subscription date as dd/mm/yyyy', () => {
    const err = new ApiError(401, { error: 'ERR_SUBSCRIPTION_EXPIRED', message: 'x', dueDate: '2024-03-09' });
    expect(errorMessage(err)).toBe(
      'Opss! Sua assinatura venceu 09/03/2024. Entre em contato com o Suporte para mais informações!',
    );
  });

  it('follows the selected language', async () => {
    await i18n.changeLanguage('en');
    try {
      expect(errorMessage(new ApiError(409, { error: 'ERR_DUPLICATED_EMAIL' }))).toBe(
        'A user with this e-mail already exists.',
      );
    } finally {
      await i18n.changeLanguage('pt');
    }
  });

  it('shows the raw code when it has no translation', () => {
    expect(errorMessage(new ApiError(400, { error: 'ERR_SOMETHING_NEW', message: 'x' }))).toBe('ERR_SOMETHING_NEW');
  });

  it('shows a plain string error as it is', () => {
    expect(errorMessage('Falha ao gravar áudio')).toBe('Falha ao gravar áudio');
  });

  it('falls back to the generic message', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Ocorreu um erro!');
    expect(errorMessage(new ApiError(502, { message: '<html>' }))).toBe('Ocorreu um erro!');
    expect(errorMessage(undefined)).toBe('Ocorreu um erro!');
  });
});

describe('toastError', () => {
  it('shows the message in an error toast', () => {
    toastError(new ApiError(403, { error: 'ERR_NO_PERMISSION' }));
    expect(toast.error).toHaveBeenCalledWith('Você não tem permissão para acessar este recurso.', expect.any(Object));
  });
});
