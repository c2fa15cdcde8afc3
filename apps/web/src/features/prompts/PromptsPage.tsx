import type { Prompt } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { toastError } from '../../components/toastError';
import { useConfirmation } from '../../components/useConfirmation';
import { PromptModal } from './PromptModal';
import { promptsApi, promptsKey, usePrompts } from './promptsApi';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['name', 'queue', 'maxTokens', 'actions'] as const;

/** /prompts (spec part 2 §2 "Prompts"): the company's AI prompts; admins add, edit and delete. */
export default function PromptsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const admin = user.profile === 'admin' || user.super;
  const list = usePrompts();
  const [modal, setModal] = useState<ModalState>({ open: false });

  const removal = useMutation({
    mutationFn: (record: Prompt) => promptsApi.remove(record.id),
    // Spec part 2 §7: the reply's message is shown as info.
    onSuccess: () => {
      toast.info(t('prompts.deleted'));
      void queryClient.invalidateQueries({ queryKey: promptsKey });
    },
    onError: toastError,
  });
  const deletion = useConfirmation<Prompt>({
    title: (record) => t('prompts.deleteTitle', { name: record.name }),
    message: t('prompts.deleteMessage'),
    onConfirm: (record) => removal.mutate(record),
  });

  const rows = list.data ?? [];
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;
  const columns = admin ? COLUMNS : COLUMNS.filter((c) => c !== 'actions');

  return (
    <PageContainer
      title={t('pages.prompts')}
      actions={
        admin && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, id: null })}
            data-testid="prompts-add"
          >
            {t('prompts.add')}
          </Button>
        )
      }
    >
      <ListTable
        testId="prompts-list"
        columns={columns.map((column) => ({
          id: column,
          label: t(`prompts.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'maxTokens' ? 'center' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        emptyText={t('prompts.empty')}
      >
        {rows.map((record) => (
          <TableRow hover key={record.id} data-testid={`prompt-row-${record.id}`}>
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {record.name}
              </Typography>
            </TableCell>
            <TableCell data-testid={`prompt-queue-${record.id}`}>{record.queue?.name ?? '—'}</TableCell>
            <TableCell align="center" data-testid={`prompt-max-tokens-${record.id}`}>
              {record.maxTokens}
            </TableCell>
            {admin && (
              <TableCell align="right">
                <RowActions
                  onEdit={() => setModal({ open: true, id: record.id })}
                  editTestId={`prompt-edit-${record.id}`}
                  onDelete={() => deletion.ask(record)}
                  deleteTestId={`prompt-delete-${record.id}`}
                />
              </TableCell>
            )}
          </TableRow>
        ))}
      </ListTable>
      <PromptModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
