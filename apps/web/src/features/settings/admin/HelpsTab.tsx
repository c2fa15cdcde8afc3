import { type Help, youtubeThumbnailUrl } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys';
import { FormTextField } from '../../../components/FormFields';
import { ListTable } from '../../../components/ListTable';
import { RowActions } from '../../../components/RowActions';
import { useConfirmation } from '../../../components/useConfirmation';
import { translateValidation } from '../../../i18n/validation';
import { helpsApi } from '../../helps/helpsApi';
import { AdminForm, fullRow } from './AdminForm';
import { deleteFailed, loadFailed, operationDone, saveFailed } from './adminFeedback';
import {
  emptyHelpForm,
  HELP_VIDEO_INVALID,
  type HelpFormValues,
  helpBody,
  helpFormSchema,
  helpToForm,
} from './helpForm';

const COLUMNS = ['thumbnail', 'title', 'video', 'description', 'actions'] as const;

function HelpRow({ help, onEdit, onDelete }: { help: Help; onEdit: () => void; onDelete: () => void }) {
  return (
    <TableRow hover data-testid={`help-row-${help.id}`}>
      <TableCell sx={{ width: 96 }}>
        <Box
          component="img"
          src={youtubeThumbnailUrl(help.video)}
          alt=""
          loading="lazy"
          sx={{ width: 80, aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 0.5, display: 'block' }}
        />
      </TableCell>
      <TableCell sx={{ fontWeight: 600 }}>{help.title}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{help.video}</TableCell>
      <TableCell sx={{ maxWidth: 360 }}>
        <Typography variant="body2" noWrap title={help.description}>
          {help.description}
        </Typography>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <RowActions
          onEdit={onEdit}
          editTestId={`help-edit-${help.id}`}
          onDelete={onDelete}
          deleteTestId={`help-delete-${help.id}`}
        />
      </TableCell>
    </TableRow>
  );
}

function HelpForm({ help, onDone, onDelete }: { help: Help | null; onDone: () => void; onDelete?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<HelpFormValues>({
    resolver: zodResolver(helpFormSchema),
    defaultValues: help ? helpToForm(help) : emptyHelpForm,
  });
  const save = useMutation({
    mutationFn: (values: HelpFormValues) =>
      help ? helpsApi.update(help.id, helpBody(values)) : helpsApi.create(helpBody(values)),
    onSuccess: async () => {
      operationDone();
      await queryClient.invalidateQueries({ queryKey: queryKeys.helps });
      onDone();
    },
    onError: saveFailed<HelpFormValues>(t('settings.helps.saveFailed'), setError, { ERR_INVALID_VIDEO: 'video' }),
  });
  const errorText = (message: string | undefined) =>
    message === HELP_VIDEO_INVALID ? t('backendErrors.ERR_INVALID_VIDEO') : translateValidation(t, message);

  return (
    <AdminForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onClear={onDone}
      editing={help !== null}
      onDelete={onDelete}
      pending={save.isPending}
      testIdPrefix="help"
    >
      <FormTextField
        control={control}
        name="title"
        label={t('settings.helps.title')}
        fullWidth
        testId="help-title"
        sx={{ gridColumn: { md: 'span 2' } }}
      />
      <FormTextField
        control={control}
        name="video"
        label={t('settings.helps.video')}
        helperText={t('settings.helps.videoHelp')}
        errorText={errorText}
        fullWidth
        testId="help-video"
        sx={{ gridColumn: { md: 'span 2' } }}
      />
      <FormTextField
        control={control}
        name="description"
        label={t('settings.helps.description')}
        multiline
        minRows={2}
        fullWidth
        testId="help-description"
        sx={fullRow}
      />
    </AdminForm>
  );
}

/** "Ajuda" (spec part 2 §2, super user): the help video form (title, video code, description) above the table. */
export function HelpsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const helps = useQuery({ queryKey: queryKeys.helps, queryFn: helpsApi.list });
  const [editing, setEditing] = useState<Help | null>(null);
  const [formKey, setFormKey] = useState(0);
  const load = (help: Help | null) => {
    setEditing(help);
    setFormKey((key) => key + 1);
  };

  const remove = useMutation({
    mutationFn: (help: Help) => helpsApi.remove(help.id),
    onSuccess: async (_reply, help) => {
      operationDone();
      if (editing?.id === help.id) load(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.helps });
    },
    onError: deleteFailed,
  });
  const deletion = useConfirmation<Help>({
    title: (help) => t('settings.helps.deleteTitle', { title: help.title }),
    message: t('settings.admin.deleteMessage'),
    onConfirm: (help) => remove.mutate(help),
  });

  useEffect(() => {
    if (helps.isError) loadFailed();
  }, [helps.isError]);

  const rows = helps.data ?? [];
  return (
    <Stack spacing={3} data-testid="helps-tab">
      <HelpForm
        key={formKey}
        help={editing}
        onDone={() => load(null)}
        onDelete={editing ? () => deletion.ask(editing) : undefined}
      />
      <ListTable
        testId="helps-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: column === 'actions' ? t('common.actions') : t(`settings.helps.columns.${column}`),
          align: column === 'actions' ? 'right' : 'left',
        }))}
        rowCount={rows.length}
        loading={helps.isPending}
        skeletonRows={3}
      >
        {rows.map((help) => (
          <HelpRow key={help.id} help={help} onEdit={() => load(help)} onDelete={() => deletion.ask(help)} />
        ))}
      </ListTable>
      {deletion.dialog}
    </Stack>
  );
}
