import { companyEvent, type FileList } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import FilesPage from './FilesPage';
import { applyFileListEvent, type FileListsData } from './filesCache';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

function record(overrides: Partial<FileList> = {}): FileList {
  return {
    id: 1,
    name: 'Catálogo',
    message: 'Segue o catálogo',
    userId: 7,
    options: [{ id: 10, name: 'Preços', path: '/media/1/x.pdf', mediaType: 'application/pdf', fileName: 'precos.pdf' }],
    ...overrides,
  };
}

function api(files: FileList[]) {
  return mockApi({
    'GET /files/': () => ({ files, count: files.length, hasMore: false }),
    'POST /files': (body) => {
      const b = body as { name: string; message: string; options: { name: string }[] };
      return {
        status: 201,
        body: record({
          id: 5,
          name: b.name,
          message: b.message,
          options: b.options.map((o, i) => ({ id: 50 + i, name: o.name, path: null, mediaType: null, fileName: null })),
        }),
      };
    },
    'POST /files/uploadList/5': () => record({ id: 5 }),
    'PUT /files/1': (body) => record(body as Partial<FileList>),
    'DELETE /files/1': () => ({ message: 'ok' }),
  });
}

describe('FilesPage', () => {
  it('lists with the count, validates, and creates a list whose files go up after the save', async () => {
    const calls = api([record()]);
    renderWithProviders(<FilesPage />);
    expect((await screen.findByTestId('files-count')).textContent).toBe('1 lista');
    expect(screen.getByTestId('file-list-options-1').textContent).toBe('1');

    await userEvent.click(screen.getByTestId('files-add'));
    await fill(screen.getByTestId('file-list-name'), 'ab');
    await userEvent.click(screen.getByTestId('file-list-modal-submit'));
    expect(await screen.findByText('Nome muito curto')).toBeTruthy();
    expect(screen.getByText('Obrigatório')).toBeTruthy();

    await userEvent.clear(screen.getByTestId('file-list-name'));
    await fill(screen.getByTestId('file-list-name'), 'Boletos');
    await fill(screen.getByTestId('file-list-message'), 'Seu boleto');
    await userEvent.click(screen.getByTestId('file-option-add'));
    await userEvent.click(screen.getByTestId('file-option-add'));
    await fill(screen.getByTestId('file-option-name-0'), 'Sem arquivo');
    await fill(screen.getByTestId('file-option-name-1'), 'Boleto');
    await userEvent.upload(
      screen.getByTestId('file-option-file-1'),
      new File(['%PDF'], 'boleto.pdf', { type: 'application/pdf' }),
    );
    await userEvent.click(screen.getByTestId('file-list-modal-submit'));

    await waitFor(() => expect(calls.calls('POST /files/uploadList/5')).toHaveLength(1));
    expect(calls.calls('POST /files')).toEqual([
      { name: 'Boletos', message: 'Seu boleto', options: [{ name: 'Sem arquivo' }, { name: 'Boleto' }] },
    ]);
    const upload = calls.fetch.mock.calls.find(([input]) => String(input).includes('/uploadList/'));
    const form = upload?.[1]?.body as FormData;
    expect((form.getAll('files') as File[]).map((f) => f.name)).toEqual(['boleto.pdf']);
    expect(form.getAll('id')).toEqual(['51']);
    await waitFor(() => expect(screen.queryByTestId('file-list-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Lista de arquivos salva com sucesso!');
  });

  it('edits keeping the stored option, and deletes after confirmation', async () => {
    const calls = api([record()]);
    renderWithProviders(<FilesPage />);
    await userEvent.click(await screen.findByTestId('file-list-edit-1'));
    expect(screen.getByTestId('file-option-stored-0').textContent).toBe('precos.pdf');
    await userEvent.clear(screen.getByTestId('file-list-message'));
    await fill(screen.getByTestId('file-list-message'), 'Novo texto');
    await userEvent.click(screen.getByTestId('file-list-modal-submit'));
    await waitFor(() => expect(calls.calls('PUT /files/1')).toHaveLength(1));
    expect(calls.calls('PUT /files/1')[0]).toEqual({
      name: 'Catálogo',
      message: 'Novo texto',
      options: [{ id: 10, name: 'Preços' }],
    });
    expect(calls.calls('POST /files/uploadList/1')).toHaveLength(0);

    await waitFor(() => expect(screen.queryByTestId('file-list-modal')).toBeNull());
    await userEvent.click(screen.getByTestId('file-list-delete-1'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Catálogo/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: /excluir|sim|ok|confirmar/i }));
    await waitFor(() => expect(calls.calls('DELETE /files/1')).toHaveLength(1));
  });

  it('follows company-{id}-file live', async () => {
    api([record()]);
    renderWithProviders(<FilesPage />);
    await screen.findByTestId('file-list-row-1');
    const companyId = 1;
    emitSocket(companyEvent.file(companyId), { action: 'create', record: record({ id: 2, name: 'Nova lista' }) });
    expect(await screen.findByTestId('file-list-row-2')).toBeTruthy();
    emitSocket(companyEvent.file(companyId), { action: 'delete', id: 1 });
    await waitFor(() => expect(screen.queryByTestId('file-list-row-1')).toBeNull());
    expect(screen.getByTestId('files-count').textContent).toBe('1 lista');
  });
});

describe('applyFileListEvent', () => {
  const data = (files: FileList[]): FileListsData => ({
    pages: [{ files, count: files.length, hasMore: false }],
    pageParams: [1],
  });
  it('does not prepend a new list while a search is shown, and replaces in place', () => {
    const searched = applyFileListEvent(data([record()]), { action: 'create', record: record({ id: 2 }) }, 'cat');
    expect(searched?.pages[0].files.map((f) => f.id)).toEqual([1]);
    const updated = applyFileListEvent(data([record()]), { action: 'update', record: record({ name: 'Novo' }) });
    expect(updated?.pages[0].files[0].name).toBe('Novo');
  });
});
