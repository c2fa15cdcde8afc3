import { screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../../test/fixtures';
import { mockApi } from '../../../test/mockApi';
import { authValue, renderWithProviders } from '../../../test/render';
import { fastUser, fill as fillField } from '../../connections/testing/user';
import { HelpsTab } from './HelpsTab';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (testId: string, text: string) => fillField(userEvent, screen.getByTestId(testId), text);
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const superUser = authValue({ user: sessionUser({ super: true }) });
const ID = 'dQw4w9WgXcQ';

describe('HelpsTab', () => {
  it('refuses a video that is not a YouTube link or id, then saves the id of a pasted link', async () => {
    const api = mockApi({
      'GET /helps/list': () => [],
      'POST /helps': (body) => ({ status: 201, body: { id: 1, description: '', ...(body as object) } }),
    });
    renderWithProviders(<HelpsTab />, { auth: superUser });
    await screen.findByTestId('help-form');
    await fill('help-title', 'Como abrir um atendimento');
    await fill('help-video', 'https://vimeo.com/123');
    await userEvent.click(screen.getByTestId('help-submit'));
    expect(await screen.findByText('Informe um link do YouTube ou o código de 11 caracteres do vídeo.')).toBeTruthy();
    expect(api.calls('POST /helps')).toHaveLength(0);

    await userEvent.clear(input('help-video'));
    await fill('help-video', `https://www.youtube.com/watch?v=${ID}&t=42s`);
    await fill('help-description', 'Passo a passo');
    await userEvent.click(screen.getByTestId('help-submit'));
    await waitFor(() => expect(api.calls('POST /helps')).toHaveLength(1));
    expect(api.calls('POST /helps')[0]).toEqual({
      title: 'Como abrir um atendimento',
      video: ID,
      description: 'Passo a passo',
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
  });

  it('lists videos with thumbnails; the edit icon loads one into the form; deletes after confirming', async () => {
    const api = mockApi({
      'GET /helps/list': () => [{ id: 3, title: 'Filas', description: 'Sobre filas', video: ID }],
      'PUT /helps/3': (body) => ({ id: 3, description: 'Sobre filas', video: ID, ...(body as object) }),
      'DELETE /helps/3': () => ({ message: 'ok' }),
    });
    renderWithProviders(<HelpsTab />, { auth: superUser });
    const row = await screen.findByTestId('help-row-3');
    expect(row.querySelector('img')?.getAttribute('src')).toBe(`https://i.ytimg.com/vi/${ID}/hqdefault.jpg`);

    await userEvent.click(screen.getByTestId('help-edit-3'));
    await waitFor(() => expect(input('help-title').value).toBe('Filas'));
    expect(input('help-video').value).toBe(ID);
    await userEvent.clear(input('help-title'));
    await fill('help-title', 'Filas e setores');
    await userEvent.click(screen.getByTestId('help-submit'));
    await waitFor(() => expect(api.calls('PUT /helps/3')).toHaveLength(1));
    expect(api.calls('PUT /helps/3')[0]).toEqual({ title: 'Filas e setores', video: ID, description: 'Sobre filas' });

    await userEvent.click(screen.getByTestId('help-delete-3'));
    expect(screen.getByText('Excluir a ajuda Filas?')).toBeTruthy();
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('DELETE /helps/3')).toHaveLength(1));
  });

  it("shows the spec's save failure with the server's reason under the video field", async () => {
    mockApi({
      'GET /helps/list': () => [],
      'POST /helps': () => ({ status: 400, body: { error: 'ERR_INVALID_VIDEO', message: 'bad' } }),
    });
    renderWithProviders(<HelpsTab />, { auth: superUser });
    await screen.findByTestId('help-form');
    await fill('help-title', 'Vídeo');
    await fill('help-video', ID);
    await userEvent.click(screen.getByTestId('help-submit'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Não foi possível realizar a operação. Verifique se já existe uma ajuda com o mesmo título ou se os campos foram preenchidos corretamente',
        expect.anything(),
      ),
    );
    expect(await screen.findByText('Informe um link do YouTube ou o código de 11 caracteres do vídeo.')).toBeTruthy();
  });
});
