import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toast } from 'react-toastify';
import type { MediaAttachmentState } from './MediaAttachment';
import { toastError } from './toastError';

interface MediaRecord {
  id: number;
  mediaName: string | null;
}

/** The calls of a record's API module (e.g. `announcementsApi`) that the form uses. */
interface MediaRecordApi<R extends MediaRecord, B> {
  create: (body: B) => Promise<R>;
  update: (id: number, body: B) => Promise<R>;
  /** Multipart upload of the record's attachment. */
  uploadMedia: (id: number, file: File) => Promise<R>;
  removeMedia: (id: number) => Promise<unknown>;
}

interface MediaRecordFormOptions<R extends MediaRecord, B> {
  /** The record being edited, or null when adding one. */
  record: R | null;
  api: MediaRecordApi<R, B>;
  /** Success toasts. */
  savedText: string;
  mediaRemovedText: string;
  /** Refetches what shows the record; also after a failed save, which may have stored it. */
  refresh: () => Promise<unknown>;
  /** After a save and its upload succeeded (closes the dialog). */
  onSaved: () => void;
  /** Checked when a file is picked (the input's `accept` is only a hint to the file picker). */
  fileTypes?: { accept: string; error: string };
  maxFileSize?: { bytes: number; error: string };
}

/**
 * The save of a record with one attachment: the record first, then the picked file. The state of
 * the attachment row goes to `MediaAttachment` (`attachment`).
 */
export function useMediaRecordForm<R extends MediaRecord, B>({
  record,
  api,
  savedText,
  mediaRemovedText,
  refresh,
  onSaved,
  fileTypes,
  maxFileSize,
}: MediaRecordFormOptions<R, B>) {
  const savedRef = useRef<R | null>(record);
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(record?.mediaName ?? null);

  const save = useMutation({
    mutationFn: async (body: B) => {
      // After a failed upload the record exists: saving again updates it instead of adding another.
      const current = savedRef.current;
      const saved = current ? await api.update(current.id, body) : await api.create(body);
      savedRef.current = saved;
      return pendingFile ? api.uploadMedia(saved.id, pendingFile) : saved;
    },
    onSuccess: async () => {
      toast.success(savedText);
      await refresh();
      onSaved();
    },
    onError: async (err) => {
      toastError(err);
      await refresh();
    },
  });

  const remove = useMutation({
    mutationFn: () => api.removeMedia(record?.id ?? 0),
    onSuccess: async () => {
      setMediaName(null);
      toast.success(mediaRemovedText);
      await refresh();
    },
    onError: toastError,
  });

  const extensions = fileTypes?.accept.split(',');
  const onPick = (file: File | undefined) => {
    if (!file) return;
    if (fileTypes && !extensions?.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      toast.error(fileTypes.error);
      return;
    }
    if (maxFileSize && file.size > maxFileSize.bytes) {
      toast.error(maxFileSize.error);
      return;
    }
    setPendingFile(file);
  };

  const attachment: MediaAttachmentState = {
    pendingFile,
    mediaName,
    onPick,
    onRemovePending: () => setPendingFile(null),
    onRemoveStored: () => remove.mutate(),
    removing: remove.isPending,
  };
  return { save, attachment };
}
