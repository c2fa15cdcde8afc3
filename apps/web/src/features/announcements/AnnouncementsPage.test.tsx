import { ANNOUNCEMENT_EVENT, type Announcement } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import AnnouncementsPage from './AnnouncementsPage';
import { announcement } from './testing';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

/** A reply of 200: mockApi reads a `status` key as the HTTP status, and announcements have one. */
const ok = (body: Announcement) => ({ status: 200, body });

function api(records: Announcement[]) {
  return mockApi({
    'GET /announcements': (_body, url) => {
      const search = url.searchParams.get('searchParam') ?? '';
      const found = records.filter((r) => r.title.toLowerCase().includes(search.toLowerCase()));
      return { records: found, count: found.length, hasMore: false };
    },
    'POST /announcements': (body) => ({ status: 201, body: announcement({ id: 5, ...(body as object) }) }),
    'PUT /announcements/1': (body) => ok(announcement({ ...records[0], ...(body as object) })),
    'POST /announcements/5/media-upload': () => ok(announcement({ id: 5, mediaName: 'cartaz.png' })),
    'DELETE /announcements/1/media-upload': () => ok(announcement({ ...records[0], mediaName: null, mediaPath: null })),
    'DELETE /announcements/1': () => ({ message: 'ok' }),
  });
}

const manutencao = announcement({
  id: 1,
  title: 'Manutenção',
  priority: 1,
  mediaName: 'aviso.jpg',
  mediaPath: '/announcements/1/media/a.jpg',
});
const feriado = announcement({ id: 2, title: 'Feriado', status: false });

describe('AnnouncementsPage', () => {
  it('lists with the count, priority, attachment or "Sem anexo" and status', async () => {
    api([feriado, manutencao]);
    renderWithProviders(<AnnouncementsPage />);
    expect((await screen.findByTestId('announcements-count')).textContent).toBe('2 informativos');
    expect(screen.getByTestId('announcement-priority-1').textContent).toBe('Alta');
    expect(screen.getByTestId('announcement-priority-2').textContent).toBe('Baixa');
    expect(screen.getByTestId('announcement-media-1').textContent).toBe('aviso.jpg');
    expect(screen.getByTestId('announcement-media-2').textContent).toBe('Sem anexo');
    expect(screen.getByTestId('announcement-status-1').textContent).toBe('Ativo');
    expect(screen.getByTestId('announcement-status-2').textContent).toBe('Inativo');
  });

  it('searches after 500 ms of quiet', async () => {
    const calls = api([feriado, manutencao]);
    renderWithProviders(<AnnouncementsPage />);
    await screen.findByTestId('announcement-row-1');
    const searched = () => calls.fetch.mock.calls.filter(([input]) => String(input).includes('searchParam=feri'));
    await fill(screen.getByTestId('announcements-search'), 'feri');
    const typedAt = Date.now();
    await waitFor(() => expect(searched()).toHaveLength(1));
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(450);
    await waitFor(() => expect(screen.queryByTestId('announcement-row-1')).toBeNull());
    expect(screen.getByTestId('announcement-row-2')).toBeTruthy();
  });

  it('requires title and text, refuses other files, saves with the priority and uploads the image', async () => {
    const calls = api([]);
    renderWithProviders(<AnnouncementsPage />);
    await userEvent.click(await screen.findByTestId('announcements-add'));
    await userEvent.click(screen.getByTestId('announcement-modal-submit'));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2);
    expect(calls.calls('POST /announcements')).toHaveLength(0);

    await fill(screen.getByTestId('announcement-title'), 'Nova versão');
    await fill(screen.getByTestId('announcement-text'), 'Linha 1\nLinha 2');
    await userEvent.click(within(screen.getByTestId('announcement-priority')).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('announcement-priority-option-2'));

    const attach = screen.getByTestId('announcement-attach') as HTMLInputElement;
    expect(attach.accept).toBe('.png,.jpg,.jpeg');
    // What a file picker lets through when the user picks "all files".
    fireEvent.change(attach, { target: { files: [new File(['GIF89a'], 'anim.gif', { type: 'image/gif' })] } });
    expect(toast.error).toHaveBeenCalledWith('Apenas imagens .png, .jpg ou .jpeg.');
    expect(screen.queryByTestId('announcement-pending-file')).toBeNull();
    fireEvent.change(attach, { target: { files: [new File(['png'], 'cartaz.PNG', { type: 'image/png' })] } });
    expect(screen.getByTestId('announcement-pending-file').textContent).toBe('cartaz.PNG');

    await userEvent.click(screen.getByTestId('announcement-modal-submit'));
    await waitFor(() => expect(calls.calls('POST /announcements/5/media-upload')).toHaveLength(1));
    expect(calls.calls('POST /announcements')).toEqual([
      { title: 'Nova versão', text: 'Linha 1\nLinha 2', priority: 2, status: true },
    ]);
    await waitFor(() => expect(screen.queryByTestId('announcement-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Informativo salvo com sucesso!');
  });

  it('edits, removes the attachment, and deletes after confirmation', async () => {
    const calls = api([manutencao]);
    renderWithProviders(<AnnouncementsPage />);
    await userEvent.click(await screen.findByTestId('announcement-edit-1'));
    expect(screen.getByTestId('announcement-media-name').textContent).toBe('aviso.jpg');
    await userEvent.click(screen.getByTestId('announcement-media-remove'));
    await waitFor(() => expect(calls.calls('DELETE /announcements/1/media-upload')).toHaveLength(1));
    await userEvent.click(screen.getByTestId('announcement-status'));
    await userEvent.click(screen.getByTestId('announcement-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /announcements/1')).toHaveLength(1));
    expect(calls.calls('PUT /announcements/1')[0]).toEqual({
      title: 'Manutenção',
      text: manutencao.text,
      priority: 1,
      status: false,
    });
    await waitFor(() => expect(screen.queryByTestId('announcement-modal')).toBeNull());

    await userEvent.click(screen.getByTestId('announcement-delete-1'));
    expect(await screen.findByText('Excluir o informativo "Manutenção"?')).toBeTruthy();
    expect(calls.calls('DELETE /announcements/1')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(calls.calls('DELETE /announcements/1')).toHaveLength(1));
    expect(toast.success).toHaveBeenCalledWith('Informativo excluído com sucesso!');
  });

  it('follows company-announcement live', async () => {
    api([manutencao]);
    renderWithProviders(<AnnouncementsPage />);
    await screen.findByTestId('announcement-row-1');
    emitSocket(ANNOUNCEMENT_EVENT, { action: 'create', record: announcement({ id: 8, title: 'Ao vivo' }) });
    expect(await screen.findByTestId('announcement-row-8')).toBeTruthy();
    expect(screen.getByTestId('announcements-count').textContent).toBe('2 informativos');
    emitSocket(ANNOUNCEMENT_EVENT, { action: 'update', record: { ...manutencao, status: false } });
    await waitFor(() => expect(screen.getByTestId('announcement-status-1').textContent).toBe('Inativo'));
    emitSocket(ANNOUNCEMENT_EVENT, { action: 'delete', id: 8 });
    await waitFor(() => expect(screen.queryByTestId('announcement-row-8')).toBeNull());
    expect(screen.getByTestId('announcements-count').textContent).toBe('1 informativo');
  });
});
