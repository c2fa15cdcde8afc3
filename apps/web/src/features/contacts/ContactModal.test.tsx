import { screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { ContactModal } from './ContactModal';
import { contact } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

describe('ContactModal', () => {
  it('validates name, number and e-mail with the spec messages, then saves the extra info', async () => {
    const api = mockApi({
      'POST /contacts': (body) => ({ status: 201, body: contact({ id: 5, ...(body as object) }) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ContactModal open contactId={null} onClose={onClose} />);

    await fill(screen.getByTestId('contact-name'), 'M');
    await fill(screen.getByTestId('contact-number'), '1234567');
    await fill(screen.getByTestId('contact-email'), 'nope');
    await userEvent.click(screen.getByTestId('contact-modal-submit'));
    expect(await screen.findByText('E-mail inválido')).toBeTruthy();
    expect(screen.getAllByText('Muito curto!')).toHaveLength(2);

    await fill(screen.getByTestId('contact-name'), 'aria');
    await fill(screen.getByTestId('contact-number'), '8');
    await userEvent.clear(screen.getByTestId('contact-email'));
    await userEvent.click(screen.getByTestId('contact-extra-add'));
    await fill(screen.getByTestId('contact-extra-name-0'), 'CPF');
    await fill(screen.getByTestId('contact-extra-value-0'), '123');
    await userEvent.click(screen.getByTestId('contact-modal-submit'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /contacts')).toEqual([
      { name: 'Maria', number: '12345678', email: '', extraInfo: [{ name: 'CPF', value: '123' }] },
    ]);
    expect(toast.success).toHaveBeenCalledWith('Contato salvo com sucesso!');
  });

  it('shows ERR_DUPLICATED_CONTACT as a toast and stays open', async () => {
    mockApi({
      'POST /contacts': () => ({ status: 409, body: { error: 'ERR_DUPLICATED_CONTACT', message: 'dup' } }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ContactModal open contactId={null} onClose={onClose} />);
    await fill(screen.getByTestId('contact-name'), 'Maria');
    await fill(screen.getByTestId('contact-number'), '5511999990001');
    await userEvent.click(screen.getByTestId('contact-modal-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Já existe um contato com este número.', expect.any(Object)),
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('loads the contact to edit and updates it', async () => {
    const api = mockApi({
      'GET /contacts/3': () => contact({ id: 3, name: 'Bia', extraInfo: [{ id: 1, name: 'Plano', value: 'Ouro' }] }),
      'PUT /contacts/3': (body) => contact({ id: 3, ...(body as object) }),
    });
    const onClose = vi.fn();
    renderWithProviders(<ContactModal open contactId={3} onClose={onClose} />);
    expect(((await screen.findByTestId('contact-extra-value-0')) as HTMLInputElement).value).toBe('Ouro');
    await fill(screen.getByTestId('contact-name'), ' Souza');
    await userEvent.click(screen.getByTestId('contact-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PUT /contacts/3')[0]).toMatchObject({
      name: 'Bia Souza',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
    });
  });
});
