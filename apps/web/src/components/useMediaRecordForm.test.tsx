import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fastUser } from '../features/connections/testing/user';
import { renderWithProviders } from '../test/render';
import { MediaAttachment } from './MediaAttachment';
import { useMediaRecordForm } from './useMediaRecordForm';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();

interface Note {
  id: number;
  text: string;
  mediaName: string | null;
}

function fakes() {
  const api = {
    create: vi.fn(async (body: { text: string }) => ({ id: 9, ...body, mediaName: null })),
    update: vi.fn(async (id: number, body: { text: string }) => ({ id, ...body, mediaName: null })),
    uploadMedia: vi.fn(async (id: number, file: File): Promise<Note> => ({ id, text: '', mediaName: file.name })),
    removeMedia: vi.fn(async () => undefined),
  };
  return {
    api,
    refresh: vi.fn(async () => undefined),
    onSaved: vi.fn(),
  };
}

function NoteForm({ record, calls }: { record: Note | null; calls: ReturnType<typeof fakes> }) {
  const { save, attachment } = useMediaRecordForm({
    record,
    ...calls,
    savedText: 'saved',
    mediaRemovedText: 'removed',
    fileTypes: { accept: '.png,.jpg', error: 'images only' },
    maxFileSize: { bytes: 10, error: 'too large' },
  });
  return (
    <>
      <MediaAttachment
        {...attachment}
        testIdPrefix="note"
        accept=".png,.jpg"
        icon={null}
        labels={{ attach: 'attach', replace: 'replace', none: 'none' }}
      />
      <button type="button" onClick={() => save.mutate({ text: 'hi' })}>
        save
      </button>
    </>
  );
}

const pick = (name: string, bytes = 3) =>
  fireEvent.change(screen.getByTestId('note-attach'), { target: { files: [new File(['x'.repeat(bytes)], name)] } });

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

describe('useMediaRecordForm with MediaAttachment', () => {
  it('checks the picked file, and after a failed upload saving again updates instead of creating', async () => {
    const calls = fakes();
    calls.api.uploadMedia.mockRejectedValueOnce('upload failed');
    renderWithProviders(<NoteForm record={null} calls={calls} />);
    expect(screen.getByText('none')).toBeTruthy();

    pick('anim.gif');
    expect(toast.error).toHaveBeenLastCalledWith('images only');
    pick('big.png', 11);
    expect(toast.error).toHaveBeenLastCalledWith('too large');
    expect(screen.queryByTestId('note-pending-file')).toBeNull();
    pick('cartaz.PNG');
    expect(screen.getByTestId('note-pending-file').textContent).toBe('cartaz.PNG');
    expect(screen.getByRole('button', { name: 'replace' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(toast.error).toHaveBeenLastCalledWith('upload failed', { toastId: 'upload failed' }));
    expect(calls.refresh).toHaveBeenCalledTimes(1);
    expect(calls.onSaved).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(calls.onSaved).toHaveBeenCalledTimes(1));
    expect(calls.api.create).toHaveBeenCalledTimes(1);
    expect(calls.api.update).toHaveBeenCalledWith(9, { text: 'hi' });
    expect(calls.api.uploadMedia).toHaveBeenCalledTimes(2);
    expect(calls.api.uploadMedia).toHaveBeenLastCalledWith(9, expect.objectContaining({ name: 'cartaz.PNG' }));
    expect(toast.success).toHaveBeenCalledWith('saved');
  });

  it('drops the picked file, and removes the stored one', async () => {
    const calls = fakes();
    renderWithProviders(<NoteForm record={{ id: 4, text: 'hi', mediaName: 'menu.pdf' }} calls={calls} />);
    pick('cartaz.png');
    expect(screen.queryByTestId('note-media-name')).toBeNull();
    fireEvent.click(screen.getByTestId('note-pending-file').querySelector('svg')!);
    expect(screen.getByTestId('note-media-name').textContent).toBe('menu.pdf');

    await userEvent.click(screen.getByTestId('note-media-remove'));
    await waitFor(() => expect(screen.getByText('none')).toBeTruthy());
    expect(calls.api.removeMedia).toHaveBeenCalledWith(4);
    expect(toast.success).toHaveBeenCalledWith('removed');
    expect(calls.refresh).toHaveBeenCalledTimes(1);
  });
});
