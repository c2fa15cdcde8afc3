import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmationModal } from './ConfirmationModal';
import { toastError } from './toastError';

interface ConfirmationOptions<T> {
  title: (item: T) => ReactNode;
  message: ReactNode | ((item: T) => ReactNode);
  onConfirm: (item: T) => void;
}

/**
 * Asks before acting on one record: `ask(record)` opens the confirmation dialog (render `dialog`
 * once in the page), confirming calls `onConfirm(record)`.
 */
export function useConfirmation<T>({ title, message, onConfirm }: ConfirmationOptions<T>) {
  const [item, setItem] = useState<T | null>(null);
  const dialog = (
    <ConfirmationModal
      open={item !== null}
      title={item === null ? '' : title(item)}
      onClose={() => setItem(null)}
      onConfirm={() => item !== null && onConfirm(item)}
    >
      {typeof message === 'function' ? item !== null && message(item) : message}
    </ConfirmationModal>
  );
  return { ask: (record: T) => setItem(record), dialog };
}

interface DeleteConfirmationOptions<T> extends Omit<ConfirmationOptions<T>, 'onConfirm'> {
  remove: (item: T) => Promise<unknown>;
  /** The success toast. */
  deletedMessage: string;
  /** Updates the cached lists once the record is gone. */
  onDeleted: (item: T) => void;
}

/** Delete a record after confirmation: a success toast and `onDeleted`, or the error toast. */
export function useDeleteConfirmation<T>({
  remove,
  deletedMessage,
  onDeleted,
  ...dialog
}: DeleteConfirmationOptions<T>) {
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: (_reply, item) => {
      toast.success(deletedMessage);
      onDeleted(item);
    },
    onError: toastError,
  });
  return useConfirmation<T>({ ...dialog, onConfirm: (item) => mutation.mutate(item) });
}
