import type { Message, QuickMessage, Ticket } from '@balcao/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import CheckCircle from '@mui/icons-material/CheckCircleOutlineOutlined';
import Close from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import FolderOpen from '@mui/icons-material/FolderOpenOutlined';
import InsertDriveFile from '@mui/icons-material/InsertDriveFileOutlined';
import Mic from '@mui/icons-material/Mic';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { toastError } from '../../components/toastError';
import { type QuickReplyOption, quickReplySuggestions, signedBody, storedSignOption, storeSignOption } from './compose';
import { FileListPicker } from './FileListPicker';
import { QuotedMessage } from './MessageItem';
import { messagesApi, useQuickReplies } from './messagesApi';
import { appendMessages, type MessagesData } from './messagesCache';
import { useReply } from './ReplyContext';
import { useAudioRecorder } from './useAudioRecorder';

export const MAX_INPUT_ROWS = 5;
const NO_QUICK_REPLIES: QuickMessage[] = [];

interface Outgoing {
  body: string;
  files: File[];
  quoted: Message | null;
  /** The picked quick reply, when its file goes along. */
  quick: QuickReplyOption | null;
}

function Hint({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <Paper
      square
      variant="outlined"
      data-testid="message-input-hint"
      sx={{ borderLeft: 0, borderRight: 0, borderBottom: 0, px: 2, py: 1.5 }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
        {action}
      </Stack>
    </Paper>
  );
}

const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

interface MessageInputProps {
  ticket: Ticket;
  /** Accepts a pending ticket (the prompt shown instead of the input). */
  onAccept?: () => void;
  accepting?: boolean;
}

/**
 * The composer: multiline text (Enter sends, Shift+Enter breaks the line), "/" quick replies,
 * the sign option, attachments, replies and voice notes. Writable only on an open ticket
 * assigned to the session user.
 */
export function MessageInput({ ticket, onAccept, accepting = false }: MessageInputProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const reply = useReply();
  const recorder = useAudioRecorder();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [attachMenu, setAttachMenu] = useState<HTMLElement | null>(null);
  const [pickingFileList, setPickingFileList] = useState(false);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [quick, setQuick] = useState<QuickReplyOption | null>(null);
  const [sign, setSign] = useState(storedSignOption);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const writable = ticket.status === 'open' && ticket.userId === me.id;
  const quickReplies = useQuickReplies(writable).data ?? NO_QUICK_REPLIES;
  const replyingTo = reply?.replyingTo ?? null;

  const suggestions = useMemo(
    () => (dismissed ? [] : quickReplySuggestions(text, quickReplies)),
    [dismissed, text, quickReplies],
  );

  // A reply or a new ticket puts the cursor in the input.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus on these changes only
  useEffect(() => {
    if (writable) inputRef.current?.focus();
  }, [replyingTo?.id, ticket.id, writable]);

  const send = useMutation({
    mutationFn: ({ body, files: medias, quoted, quick: picked }: Outgoing) => {
      const input = { body, quotedMsg: quoted ? { id: quoted.id } : null, quickMessageId: picked?.id };
      return medias.length ? messagesApi.sendMedia(ticket.id, medias, input) : messagesApi.send(ticket.id, input);
    },
    onSuccess: (created) => appendToChat(created),
    onError: toastError,
  });

  function appendToChat(created: Message[]) {
    queryClient.setQueryData<MessagesData>(queryKeys.messages.list(ticket.id), (data) => appendMessages(data, created));
  }

  const empty = !text.trim() && files.length === 0 && !quick;

  function submit() {
    if (empty) return;
    const trimmed = text.trim();
    const body = trimmed ? signedBody(trimmed, me.name, sign) : '';
    send.mutate(
      { body, files, quoted: replyingTo, quick },
      {
        // Give the text back when it could not be sent.
        onError: () => {
          setText((current) => current || text);
          setQuick((current) => current ?? quick);
        },
      },
    );
    setText('');
    setFiles([]);
    setQuick(null);
    reply?.setReplyingTo(null);
  }

  /** A quick reply's text goes in the input; its file, if any, waits beside it as an attachment. */
  function pick(option: QuickReplyOption) {
    setText(option.value);
    setQuick(option.media ? option : null);
    setActive(0);
    setDismissed(true);
    inputRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Escape') {
        setDismissed(true);
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        pick(suggestions[Math.min(active, suggestions.length - 1)]);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const chosen = Array.from(event.target.files ?? []);
    if (chosen.length) setFiles((current) => [...current, ...chosen]);
    event.target.value = '';
  }

  async function startRecording() {
    try {
      await recorder.start();
    } catch (err) {
      toastError(err instanceof Error && err.message ? t('messages.input.microphoneError') : err);
    }
  }

  async function sendRecording() {
    const file = await recorder.stop();
    // Too short to be a voice note: dropped without a word (spec §2).
    if (!file) return;
    send.mutate({ body: '', files: [file], quoted: replyingTo, quick: null });
    reply?.setReplyingTo(null);
  }

  if (!writable) {
    if (ticket.status === 'pending')
      return (
        <Hint
          text={t('messages.input.pendingHint')}
          action={
            onAccept && (
              <Button
                variant="contained"
                color="success"
                size="small"
                startIcon={<CheckCircle />}
                onClick={onAccept}
                disabled={accepting}
                data-testid="input-accept-button"
              >
                {t('messages.input.accept')}
              </Button>
            )
          }
        />
      );
    return <Hint text={t(ticket.status === 'closed' ? 'messages.input.closedHint' : 'messages.input.otherUserHint')} />;
  }

  return (
    <Paper
      square
      variant="outlined"
      sx={{ borderLeft: 0, borderRight: 0, borderBottom: 0, position: 'relative' }}
      data-testid="message-composer"
    >
      {replyingTo && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1.5, pt: 1 }} data-testid="reply-preview">
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <QuotedMessage quoted={replyingTo} />
          </Box>
          <Tooltip title={t('messages.input.cancelReply')}>
            <IconButton size="small" onClick={() => reply?.setReplyingTo(null)} data-testid="reply-cancel">
              <Close fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      )}
      {(files.length > 0 || quick) && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, px: 1.5, pt: 1 }} data-testid="attachments">
          {quick && (
            <Chip
              icon={<InsertDriveFile />}
              label={quick.media}
              onDelete={() => setQuick(null)}
              sx={{ maxWidth: 240 }}
              data-testid="quick-reply-media"
            />
          )}
          {files.map((file, index) => (
            <Chip
              key={`${file.name}-${file.size}-${file.lastModified}`}
              icon={<InsertDriveFile />}
              label={file.name}
              onDelete={() => setFiles((current) => current.filter((_, i) => i !== index))}
              sx={{ maxWidth: 240 }}
            />
          ))}
        </Stack>
      )}
      {suggestions.length > 0 && (
        <Paper
          elevation={6}
          data-testid="quick-replies"
          sx={{
            position: 'absolute',
            bottom: '100%',
            left: 8,
            right: 8,
            mb: 0.5,
            maxHeight: 240,
            overflowY: 'auto',
            zIndex: 2,
          }}
        >
          <List dense disablePadding aria-label={t('messages.input.quickReplies')}>
            {suggestions.map((option, index) => (
              <ListItemButton
                key={option.id}
                selected={index === active}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
                data-testid={`quick-reply-${option.id}`}
              >
                <ListItemText primary={option.label} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {recorder.recording ? (
        <Stack
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center', justifyContent: 'flex-end', px: 1.5, py: 1 }}
          data-testid="recording"
        >
          <Tooltip title={t('messages.input.cancelAudio')}>
            <IconButton color="error" onClick={recorder.cancel} data-testid="record-cancel">
              <DeleteOutline />
            </IconButton>
          </Tooltip>
          <FiberManualRecord color="error" fontSize="small" />
          <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {t('messages.input.recording')} {clock(recorder.seconds)}
          </Typography>
          <Tooltip title={t('messages.input.sendAudio')}>
            <IconButton color="primary" onClick={() => void sendRecording()} data-testid="record-send">
              <Send />
            </IconButton>
          </Tooltip>
        </Stack>
      ) : (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-end', px: 1, py: 1 }}>
          <input ref={fileRef} type="file" multiple hidden onChange={onFiles} data-testid="attach-input" />
          <Tooltip title={t('messages.input.attach')}>
            <IconButton
              onClick={(event) => setAttachMenu(event.currentTarget)}
              aria-haspopup="menu"
              data-testid="attach-button"
            >
              <AttachFile />
            </IconButton>
          </Tooltip>
          <Menu anchorEl={attachMenu} open={attachMenu !== null} onClose={() => setAttachMenu(null)}>
            <MenuItem
              onClick={() => {
                setAttachMenu(null);
                fileRef.current?.click();
              }}
              data-testid="attach-files"
            >
              <ListItemIcon>
                <InsertDriveFile fontSize="small" />
              </ListItemIcon>
              {t('messages.input.attachFiles')}
            </MenuItem>
            <MenuItem
              onClick={() => {
                setAttachMenu(null);
                setPickingFileList(true);
              }}
              data-testid="attach-file-list"
            >
              <ListItemIcon>
                <FolderOpen fontSize="small" />
              </ListItemIcon>
              {t('messages.input.sendFileList')}
            </MenuItem>
          </Menu>
          <FileListPicker
            ticket={ticket}
            open={pickingFileList}
            onClose={() => setPickingFileList(false)}
            onSent={appendToChat}
          />
          <Tooltip title={t('messages.input.signHelp')}>
            <FormControlLabel
              sx={{ mx: 0.5, mb: 0.5 }}
              control={
                <Switch
                  size="small"
                  checked={sign}
                  onChange={(event) => {
                    setSign(event.target.checked);
                    storeSignOption(event.target.checked);
                  }}
                  slotProps={{ input: { 'aria-label': t('messages.input.sign') } }}
                  data-testid="sign-switch"
                />
              }
              label={<Typography variant="caption">{t('messages.input.sign')}</Typography>}
              labelPlacement="bottom"
            />
          </Tooltip>
          <TextField
            inputRef={inputRef}
            multiline
            maxRows={MAX_INPUT_ROWS}
            fullWidth
            size="small"
            placeholder={t(files.length || quick ? 'messages.input.caption' : 'messages.input.placeholder')}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
              setDismissed(false);
            }}
            onKeyDown={onKeyDown}
            slotProps={{ htmlInput: { 'data-testid': 'message-input', 'aria-label': t('messages.input.placeholder') } }}
            sx={{ '& .MuiOutlinedInput-root': { borderRadius: 3, bgcolor: 'background.default' } }}
          />
          {empty && (
            <Tooltip title={t('messages.input.record')}>
              <IconButton onClick={() => void startRecording()} data-testid="record-button">
                <Mic />
              </IconButton>
            </Tooltip>
          )}
          <Tooltip title={t('messages.input.send')}>
            <span>
              <IconButton
                color="primary"
                onClick={submit}
                disabled={empty}
                data-testid="send-button"
                aria-label={t('messages.input.send')}
              >
                {send.isPending ? <CircularProgress size={22} /> : <Send />}
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      )}
    </Paper>
  );
}
