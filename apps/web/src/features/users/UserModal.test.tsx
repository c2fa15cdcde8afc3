import { AVATAR_MAX_BYTES } from '@balcao/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionReply, sessionUser, user } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { UserModal } from './UserModal';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

/** Types into a field in one input event (much faster than key by key in jsdom). */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

const queues = [
  { id: 1, name: 'Vendas', color: '#7c3aed' },
  { id: 2, name: 'Suporte', color: '#0ea5e9' },
];

describe('UserModal', () => {
  it('validates with the spec messages and creates a user', async () => {
    const api = mockApi({ 'GET /queue': () => queues, 'POST /users': (body) => user({ id: 9, ...(body as object) }) });
    const onClose = vi.fn();
    renderWithProviders(<UserModal open userId={null} onClose={onClose} />);

    await fill(screen.getByTestId('user-name'), 'A');
    await fill(screen.getByTestId('user-email'), 'nope');
    await userEvent.click(screen.getByTestId('user-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    expect(screen.getByText('E-mail inválido')).toBeTruthy();
    expect(screen.getByText('Obrigatório')).toBeTruthy();

    await fill(screen.getByTestId('user-name'), 'na Lima');
    await userEvent.clear(screen.getByTestId('user-email'));
    await fill(screen.getByTestId('user-email'), 'Ana@Acme.test');
    await fill(screen.getByTestId('user-password'), 'secret1');
    await userEvent.click(screen.getByTestId('user-modal-submit'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /users')).toEqual([
      {
        name: 'Ana Lima',
        email: 'ana@acme.test',
        password: 'secret1',
        profile: 'user',
        limitAttendance: 0,
        queueIds: [],
        allTicket: 'disable',
        whatsappId: null,
      },
    ]);
    expect(toast.success).toHaveBeenCalledWith('Usuário salvo com sucesso!');
  });

  it('shows profile, limit and queues to admins', async () => {
    mockApi({ 'GET /queue': () => queues, 'GET /users/3': () => user({ id: 3, queues: [queues[0]] }) });
    renderWithProviders(<UserModal open userId={3} onClose={vi.fn()} />);

    expect(await screen.findByTestId('user-profile')).toBeTruthy();
    expect(screen.getByTestId('user-limit-attendance')).toBeTruthy();
    expect(screen.getByTestId('user-queues').textContent).toContain('Vendas');
  });

  it('lets a plain user edit only their name, e-mail and password', async () => {
    const me = sessionUser({ id: 5, profile: 'user', name: 'Bia Alves', email: 'bia@acme.test' });
    const api = mockApi({
      'GET /users/5': () => user({ id: 5, profile: 'user', name: 'Bia Alves', email: 'bia@acme.test' }),
      'PUT /users/5': (body) => user({ id: 5, ...(body as object) }),
    });
    const auth = authValue({ user: me });
    renderWithProviders(<UserModal open userId={5} onClose={vi.fn()} />, { auth });

    const name = await screen.findByTestId('user-name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Bia Alves'));
    expect(screen.queryByTestId('user-profile')).toBeNull();
    expect(screen.queryByTestId('user-queues')).toBeNull();
    expect(screen.getByText('Deixe em branco para manter a senha atual')).toBeTruthy();

    await fill(name, ' Souza');
    await userEvent.click(screen.getByTestId('user-modal-submit'));
    await waitFor(() =>
      expect(api.calls('PUT /users/5')).toEqual([{ name: 'Bia Alves Souza', email: 'bia@acme.test', password: '' }]),
    );
    await waitFor(() => expect(auth.reloadUser).toHaveBeenCalled());
    expect(api.calls('GET /queue')).toHaveLength(0);
  });

  it('saves and removes the picture at once, leaving what is being typed alone', async () => {
    const me = sessionUser({ id: 5, profile: 'user', name: 'Bia Alves' });
    const bia = (avatar: string | null) => user({ id: 5, profile: 'user', name: 'Bia Alves', avatar });
    const api = mockApi({
      'GET /users/5': () => bia(null),
      'POST /users/5/avatar': () => bia('/media/1/0f8fad5b-d9cb-469f-a165-70867728950e.png'),
      'DELETE /users/5/avatar': () => bia(null),
    });
    const auth = authValue({ user: me });
    renderWithProviders(<UserModal open userId={5} onClose={vi.fn()} />, { auth });
    const name = (await screen.findByTestId('user-name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Bia Alves'));
    await fill(name, ' Souza');
    expect(screen.getByTestId('user-avatar-image').textContent).toBe('BA');

    // The dialog refuses a wrong file before any upload (the accept filter aside, as a drop would).
    const files = userEvent.setup({ applyAccept: false });
    const input = screen.getByTestId('user-avatar-input');
    await files.upload(input, new File(['GIF89a'], 'me.gif', { type: 'image/gif' }));
    expect(toast.error).toHaveBeenCalledWith('Escolha uma imagem PNG ou JPEG.');
    await files.upload(input, new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'big.png', { type: 'image/png' }));
    expect(toast.error).toHaveBeenCalledWith('A imagem deve ter até 5 MB.');
    expect(api.calls('POST /users/5/avatar')).toHaveLength(0);

    await files.upload(input, new File(['png'], 'me.png', { type: 'image/png' }));
    await waitFor(() => expect(api.calls('POST /users/5/avatar')).toHaveLength(1));
    await waitFor(() =>
      expect(auth.updateUser).toHaveBeenCalledWith({ avatar: '/media/1/0f8fad5b-d9cb-469f-a165-70867728950e.png' }),
    );
    expect(toast.success).toHaveBeenCalledWith('Foto atualizada com sucesso!');
    expect(name.value).toBe('Bia Alves Souza');

    await userEvent.click(await screen.findByTestId('user-avatar-remove'));
    await waitFor(() => expect(api.calls('DELETE /users/5/avatar')).toHaveLength(1));
    await waitFor(() => expect(auth.updateUser).toHaveBeenCalledWith({ avatar: null }));
    expect(screen.queryByTestId('user-avatar-remove')).toBeNull();
    expect(name.value).toBe('Bia Alves Souza');
  });

  it('shows the translated server error without refreshing for a rule refusal', async () => {
    const api = mockApi({
      'GET /queue': () => queues,
      'POST /users': () => ({ status: 403, body: { error: 'ERR_PLAN_LIMIT_USERS', message: 'limit' } }),
      'POST /auth/refresh_token': () => sessionReply(),
    });
    renderWithProviders(<UserModal open userId={null} onClose={vi.fn()} />);
    await fill(screen.getByTestId('user-name'), 'Caio Reis');
    await fill(screen.getByTestId('user-email'), 'caio@acme.test');
    await fill(screen.getByTestId('user-password'), 'secret1');
    await userEvent.click(screen.getByTestId('user-modal-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('O limite de usuários do plano foi atingido.', expect.any(Object)),
    );
    expect(api.calls('POST /auth/refresh_token')).toHaveLength(0);
  });
});
