import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { PageContainer } from '../../components/PageContainer';
import {
  checkText,
  filterItems,
  isTodoStatus,
  TODO_INITIAL_STATUS,
  TODO_STATUSES,
  TODO_TEXT_MAX,
  type TodoItem,
  type TodoStatus,
} from './todoStorage';
import { useTodoList } from './useTodoList';

type Filter = TodoStatus | 'all';

/** The palette colour of each status: the item's border and tint. */
const STATUS_COLOR = { stopped: 'error', inProgress: 'warning', resolved: 'success' } as const;

/** /todolist (spec part 2 §2 "To-do list"): the signed-in user's own tasks, kept in this browser. */
export default function TodoPage() {
  const { t, i18n } = useTranslation();
  const me = useSessionUser();
  const { items, add, changeStatus, remove } = useTodoList({ companyId: me.companyId, userId: me.id });
  const [text, setText] = useState('');
  const [status, setStatus] = useState<TodoStatus>(TODO_INITIAL_STATUS);
  const [filter, setFilter] = useState<Filter>('all');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  /** Runs a change of the stored list; a browser that refuses to store (quota, privacy mode) says so. */
  const store = (change: () => void): boolean => {
    try {
      change();
      return true;
    } catch {
      toast.error(t('todo.saveFailed'));
      return false;
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkText(text);
    if (!checked.ok) {
      setError(checked.reason === 'empty' ? t('todo.emptyText') : t('todo.tooLong', { max: TODO_TEXT_MAX }));
      return;
    }
    if (store(() => add(checked.text, status))) setText('');
    input.current?.focus();
  };

  const shown = filterItems(items, filter);
  const locale = i18n.language === 'pt' ? 'pt-BR' : i18n.language;

  return (
    <PageContainer title={t('pages.todolist')}>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Stack
          component="form"
          noValidate
          onSubmit={submit}
          direction={{ xs: 'column', sm: 'row' }}
          sx={{ gap: 1.5, alignItems: { sm: 'flex-start' } }}
          data-testid="todo-form"
        >
          <TextField
            inputRef={input}
            label={t('todo.text')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            fullWidth
            helperText={t('todo.length', { count: text.length, max: TODO_TEXT_MAX })}
            slotProps={{
              htmlInput: { maxLength: TODO_TEXT_MAX, 'data-testid': 'todo-text' },
              formHelperText: { sx: { textAlign: 'right' } },
            }}
          />
          <TextField
            select
            label={t('todo.status')}
            value={status}
            onChange={(event) => isTodoStatus(event.target.value) && setStatus(event.target.value)}
            sx={{ minWidth: { sm: 190 } }}
            slotProps={{
              select: { native: true },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'todo-status' },
            }}
          >
            {TODO_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`todo.statuses.${s}`)}
              </option>
            ))}
          </TextField>
          <Button
            type="submit"
            variant="contained"
            startIcon={<Add />}
            sx={{ minHeight: 56, flexShrink: 0 }}
            data-testid="todo-add"
          >
            {t('todo.add')}
          </Button>
        </Stack>
      </Paper>

      <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label={t('todo.filter')}
          value={filter}
          onChange={(event) => {
            const value = event.target.value;
            setFilter(value === 'all' || isTodoStatus(value) ? value : 'all');
          }}
          sx={{ minWidth: 190 }}
          slotProps={{
            select: { native: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'todo-filter' },
          }}
        >
          <option value="all">{t('todo.all')}</option>
          {TODO_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`todo.statuses.${s}`)}
            </option>
          ))}
        </TextField>
        <Typography variant="body2" color="text.secondary" data-testid="todo-count">
          {t('todo.count', { count: shown.length })}
        </Typography>
      </Stack>

      <Box sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto' }}>
        {shown.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }} data-testid="todo-empty">
            {items.length === 0 ? t('todo.empty') : t('todo.emptyFiltered')}
          </Typography>
        ) : (
          <Stack component="ul" sx={{ listStyle: 'none', m: 0, p: 0, gap: 1 }} data-testid="todo-list">
            {shown.map((item) => (
              <TodoRow
                key={item.id}
                item={item}
                locale={locale}
                onStatus={(next) => store(() => changeStatus(item.id, next))}
                onDelete={() => store(() => remove(item.id))}
              />
            ))}
          </Stack>
        )}
      </Box>

      <Dialog
        open={error !== null}
        onClose={() => setError(null)}
        maxWidth="xs"
        fullWidth
        aria-labelledby="todo-error-title"
        aria-describedby="todo-error-message"
        data-testid="todo-error-dialog"
      >
        <DialogTitle id="todo-error-title">{t('todo.errorTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="todo-error-message">{error}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" autoFocus onClick={() => setError(null)} data-testid="todo-error-ok">
            {t('todo.ok')}
          </Button>
        </DialogActions>
      </Dialog>
    </PageContainer>
  );
}

interface TodoRowProps {
  item: TodoItem;
  locale: string;
  onStatus: (status: TodoStatus) => void;
  onDelete: () => void;
}

function TodoRow({ item, locale, onStatus, onDelete }: TodoRowProps) {
  const { t } = useTranslation();
  const color = STATUS_COLOR[item.status];
  const created = new Date(item.createdAt);
  return (
    <Box
      component="li"
      data-testid={`todo-item-${item.id}`}
      data-status={item.status}
      sx={(theme) => ({
        display: 'flex',
        flexWrap: { xs: 'wrap', sm: 'nowrap' },
        alignItems: 'center',
        gap: 1,
        p: 1.5,
        borderRadius: 1,
        borderLeft: `6px solid ${theme.palette[color].main}`,
        bgcolor: alpha(theme.palette[color].main, theme.palette.mode === 'dark' ? 0.2 : 0.12),
      })}
    >
      <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
        <Typography
          sx={{
            overflowWrap: 'anywhere',
            textDecoration: item.status === 'resolved' ? 'line-through' : 'none',
          }}
          data-testid="todo-item-text"
        >
          {item.text}
        </Typography>
        {!Number.isNaN(created.getTime()) && (
          <Typography variant="caption" color="text.secondary">
            {created.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' })}
          </Typography>
        )}
      </Box>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, ml: 'auto' }}>
        <TextField
          select
          size="small"
          value={item.status}
          onChange={(event) => isTodoStatus(event.target.value) && onStatus(event.target.value)}
          sx={{ minWidth: 160, bgcolor: 'background.paper', borderRadius: 1 }}
          slotProps={{
            select: { native: true },
            htmlInput: {
              'aria-label': t('todo.itemStatus', { text: item.text }),
              'data-testid': `todo-item-status-${item.id}`,
            },
          }}
        >
          {TODO_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`todo.statuses.${s}`)}
            </option>
          ))}
        </TextField>
        <Tooltip title={t('todo.delete')}>
          <IconButton
            onClick={onDelete}
            aria-label={t('todo.deleteItem', { text: item.text })}
            data-testid={`todo-item-delete-${item.id}`}
          >
            <DeleteOutline />
          </IconButton>
        </Tooltip>
      </Stack>
    </Box>
  );
}
