import type { QueueOption } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Close from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Save from '@mui/icons-material/Save';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { toastError } from '../../components/toastError';
import { queueOptionsApi } from './queuesApi';

const levelKey = (parentId: number | null) => parentId ?? 'root';

/** Title and message fields of an option being added or edited. */
function OptionFields({
  initial,
  testId,
  saving,
  onSave,
  onCancel,
}: {
  initial: { title: string; message: string };
  testId: string;
  saving: boolean;
  onSave: (values: { title: string; message: string }) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(initial.title);
  const [message, setMessage] = useState(initial.message);
  const [touched, setTouched] = useState(false);
  const blank = title.trim() === '';
  return (
    <Stack spacing={1.5} sx={{ flex: 1, py: 1 }}>
      <TextField
        size="small"
        label={t('queueOptions.title')}
        value={title}
        autoFocus
        onChange={(event) => setTitle(event.target.value)}
        error={touched && blank}
        helperText={touched && blank ? t('validation.required') : undefined}
        slotProps={{ htmlInput: { maxLength: 100, 'data-testid': `${testId}-title` } }}
      />
      <TextField
        size="small"
        label={t('queueOptions.message')}
        value={message}
        multiline
        minRows={2}
        maxRows={6}
        onChange={(event) => setMessage(event.target.value)}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-message` } }}
      />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button size="small" color="inherit" startIcon={<Close />} onClick={onCancel} data-testid={`${testId}-cancel`}>
          {t('common.cancel')}
        </Button>
        <Button
          size="small"
          variant="contained"
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <Save />}
          disabled={saving}
          onClick={() => {
            setTouched(true);
            if (!blank) onSave({ title: title.trim(), message });
          }}
          data-testid={`${testId}-save`}
        >
          {t('common.save')}
        </Button>
      </Stack>
    </Stack>
  );
}

function OptionItem({ option, queueId, path }: { option: QueueOption; queueId: number; path: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [addingChild, setAddingChild] = useState(false);
  const siblings = queryKeys.queueOptions(queueId, option.parentId);

  const update = useMutation({
    mutationFn: (values: { title: string; message: string }) => queueOptionsApi.update(option.id, values),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: siblings });
      setEditing(false);
    },
    onError: toastError,
  });
  const remove = useMutation({
    mutationFn: () => queueOptionsApi.remove(option.id),
    // The server renumbers the following siblings: reload them.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: siblings }),
    onError: toastError,
  });

  return (
    <Box data-testid={`queue-option-${option.id}`}>
      <Paper variant="outlined" sx={{ px: 1, py: 0.5 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: editing ? 'flex-start' : 'center' }}>
          <IconButton
            size="small"
            onClick={() => setExpanded((e) => !e)}
            aria-expanded={expanded}
            aria-label={t(expanded ? 'queueOptions.collapse' : 'queueOptions.expand')}
            data-testid={`queue-option-expand-${option.id}`}
            sx={{ mt: editing ? 1 : 0 }}
          >
            {expanded ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
          </IconButton>
          <Chip
            size="small"
            color="primary"
            label={path}
            data-testid={`queue-option-number-${option.id}`}
            sx={{ mt: editing ? 1.25 : 0 }}
          />
          {editing ? (
            <OptionFields
              initial={option}
              testId={`queue-option-form-${option.id}`}
              saving={update.isPending}
              onSave={(values) => update.mutate(values)}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography
                  variant="body2"
                  sx={{ fontWeight: 600 }}
                  noWrap
                  data-testid={`queue-option-label-${option.id}`}
                >
                  {option.title}
                </Typography>
                {option.message && (
                  <Typography variant="caption" color="text.secondary" noWrap component="p">
                    {option.message}
                  </Typography>
                )}
              </Box>
              <Tooltip title={t('queueOptions.addChild')}>
                <IconButton
                  size="small"
                  onClick={() => {
                    setExpanded(true);
                    setAddingChild(true);
                  }}
                  data-testid={`queue-option-add-child-${option.id}`}
                >
                  <Add fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('common.edit')}>
                <IconButton
                  size="small"
                  onClick={() => setEditing(true)}
                  data-testid={`queue-option-edit-${option.id}`}
                >
                  <EditOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t('common.delete')}>
                <span>
                  <IconButton
                    size="small"
                    color="error"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate()}
                    data-testid={`queue-option-delete-${option.id}`}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            </>
          )}
        </Stack>
      </Paper>
      {expanded && (
        <Box sx={{ pl: 3, pt: 1, borderLeft: 2, borderColor: 'divider', ml: 2 }}>
          <OptionsLevel
            queueId={queueId}
            parentId={option.id}
            pathPrefix={`${path}.`}
            adding={addingChild}
            onAddingDone={() => setAddingChild(false)}
          />
        </Box>
      )}
    </Box>
  );
}

function OptionsLevel({
  queueId,
  parentId,
  pathPrefix,
  adding,
  onAddingDone,
}: {
  queueId: number;
  parentId: number | null;
  pathPrefix: string;
  adding: boolean;
  onAddingDone: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = queryKeys.queueOptions(queueId, parentId);
  const options = useQuery({ queryKey: key, queryFn: () => queueOptionsApi.list(queueId, parentId) });
  const create = useMutation({
    mutationFn: (values: { title: string; message: string }) =>
      queueOptionsApi.create({ queueId, parentId, ...values }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: key });
      onAddingDone();
    },
    onError: toastError,
  });

  return (
    <Stack spacing={1} data-testid={`queue-options-level-${levelKey(parentId)}`}>
      {options.isPending && <CircularProgress size={20} />}
      {options.data?.map((option) => (
        <OptionItem key={option.id} option={option} queueId={queueId} path={`${pathPrefix}${option.option}`} />
      ))}
      {options.data?.length === 0 && !adding && (
        <Typography variant="caption" color="text.secondary">
          {t(parentId === null ? 'queueOptions.empty' : 'queueOptions.noChildren')}
        </Typography>
      )}
      {adding && (
        <Paper variant="outlined" sx={{ px: 1.5 }}>
          <OptionFields
            initial={{ title: '', message: '' }}
            testId={`queue-option-draft-${levelKey(parentId)}`}
            saving={create.isPending}
            onSave={(values) => create.mutate(values)}
            onCancel={onAddingDone}
          />
        </Paper>
      )}
    </Stack>
  );
}

/** The chatbot options of a saved queue: a tree edited one option at a time (spec part 2 §4). */
export function QueueOptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  return (
    <Stack spacing={1.5} data-testid="queue-options">
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('queueOptions.heading')}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('queueOptions.help')}
          </Typography>
        </Box>
        <Button size="small" startIcon={<Add />} onClick={() => setAdding(true)} data-testid="queue-options-add">
          {t('queueOptions.add')}
        </Button>
      </Stack>
      <OptionsLevel
        queueId={queueId}
        parentId={null}
        pathPrefix=""
        adding={adding}
        onAddingDone={() => setAdding(false)}
      />
    </Stack>
  );
}
