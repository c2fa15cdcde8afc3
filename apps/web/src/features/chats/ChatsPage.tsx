import { type Chat, type ChatRoomEvent, companyEvent } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/EditOutlined';
import Send from '@mui/icons-material/Send';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { onScrollLoadMore } from '../../components/infiniteScroll';
import { useInfiniteList } from '../../components/useInfiniteList';
import { formatDate, formatTime } from '../tickets/format';
import { ChatDialog } from './ChatDialog';
import { chatKeys, chatsApi, unreadsOf } from './chatsApi';
import { appendMessage, chatsOf, removeChat, upsertChat } from './chatsCache';
import { useChatsLive } from './useChatsLive';

/** Spec part 2 §8: older messages load when scrolled within 600 px of the top. */
export const LOAD_OLDER_PX = 600;

function ChatList({
  chats,
  selectedId,
  onSelect,
  list,
}: {
  chats: Chat[];
  selectedId: number | null;
  onSelect: (chat: Chat) => void;
  list: ReturnType<typeof useInfiniteList>;
}) {
  const { t } = useTranslation();
  const me = useSessionUser();
  return (
    <Box
      data-testid="chat-list"
      sx={{ flex: 1, overflowY: 'auto' }}
      onScroll={onScrollLoadMore(list.hasNextPage, list.isFetching, () => void list.fetchNextPage())}
    >
      <List disablePadding>
        {chats.map((chat) => (
          <ListItemButton
            key={chat.id}
            divider
            selected={chat.id === selectedId}
            onClick={() => onSelect(chat)}
            data-testid={`chat-item-${chat.id}`}
          >
            <ListItemText
              primary={chat.title}
              secondary={chat.lastMessage}
              slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
            />
            <Badge
              color="primary"
              badgeContent={unreadsOf(chat, me.id)}
              sx={{ ml: 2 }}
              slotProps={{ badge: { 'data-testid': `chat-unread-${chat.id}` } as object }}
            />
          </ListItemButton>
        ))}
      </List>
      {list.isPending && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
          <CircularProgress size={22} />
        </Box>
      )}
      {!list.isPending && chats.length === 0 && (
        <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }} data-testid="chat-list-empty">
          {t('chatsPage.empty')}
        </Typography>
      )}
    </Box>
  );
}

function Conversation({ chat, onEdit, onDelete }: { chat: Chat; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const box = useRef<HTMLDivElement>(null);
  /** Where to keep the view after a render: at the bottom, or the same distance from it (older page above). */
  const keep = useRef<{ bottom: boolean; fromBottom: number }>({ bottom: true, fromBottom: 0 });
  const messages = useInfiniteQuery({
    queryKey: chatKeys.messages(chat.id),
    queryFn: ({ pageParam }) => chatsApi.messages(chat.id, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  // Page 1 is the newest: older pages go above it.
  const records = [...(messages.data?.pages ?? [])].reverse().flatMap((p) => p.records);
  const read = useMutation({
    mutationFn: () => chatsApi.read(chat.id, me.id),
    onSuccess: (record) => upsertChat(queryClient, record),
  });
  const mine = unreadsOf(chat, me.id);
  // biome-ignore lint/correctness/useExhaustiveDependencies: marks read when the chat opens or gets unread messages.
  useEffect(() => {
    if (mine > 0) read.mutate();
  }, [chat.id, mine]);

  useSocketEvent<ChatRoomEvent>(companyEvent.chatRoom(me.companyId, chat.id), (event) => {
    const el = box.current;
    keep.current = { bottom: !el || el.scrollHeight - el.scrollTop - el.clientHeight < 80, fromBottom: 0 };
    appendMessage(queryClient, event.message);
    upsertChat(queryClient, event.record);
  });

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.scrollTop = keep.current.bottom ? el.scrollHeight : el.scrollHeight - keep.current.fromBottom;
  });

  const send = useMutation({
    mutationFn: (message: string) => chatsApi.send(chat.id, message),
    onSuccess: (message) => {
      keep.current = { bottom: true, fromBottom: 0 };
      appendMessage(queryClient, message);
    },
  });
  const submit = () => {
    const message = text.trim();
    if (!message) return;
    setText('');
    send.mutate(message);
  };

  return (
    <Stack sx={{ height: '100%', minHeight: 0 }} data-testid="chat-conversation">
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }} noWrap data-testid="chat-title-header">
          {chat.title}
        </Typography>
        {chat.ownerId === me.id && (
          <>
            <IconButton aria-label={t('chatsPage.edit')} onClick={onEdit} data-testid="chat-edit">
              <Edit />
            </IconButton>
            <IconButton aria-label={t('chatsPage.delete')} onClick={onDelete} data-testid="chat-delete">
              <Delete />
            </IconButton>
          </>
        )}
      </Stack>
      <Box
        ref={box}
        data-testid="chat-messages"
        sx={{ flex: 1, overflowY: 'auto', p: 2, minHeight: 0 }}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollTop < LOAD_OLDER_PX && messages.hasNextPage && !messages.isFetchingNextPage) {
            keep.current = { bottom: false, fromBottom: el.scrollHeight - el.scrollTop };
            void messages.fetchNextPage();
          } else {
            keep.current = { bottom: el.scrollHeight - el.scrollTop - el.clientHeight < 80, fromBottom: 0 };
            if (!keep.current.bottom) keep.current.fromBottom = el.scrollHeight - el.scrollTop;
          }
        }}
      >
        {messages.isFetchingNextPage && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 1 }}>
            <CircularProgress size={20} />
          </Box>
        )}
        {!messages.isPending && records.length === 0 && (
          <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
            {t('chatsPage.noMessages')}
          </Typography>
        )}
        {records.map((m) => {
          const own = m.senderId === me.id;
          return (
            <Box
              key={m.id}
              data-testid={`chat-message-${m.id}`}
              sx={{ display: 'flex', justifyContent: own ? 'flex-end' : 'flex-start', mb: 1 }}
            >
              <Paper
                variant="outlined"
                sx={{ px: 1.5, py: 1, maxWidth: '75%', bgcolor: own ? 'action.selected' : 'background.paper' }}
              >
                {!own && (
                  <Typography variant="caption" color="primary" sx={{ fontWeight: 600 }}>
                    {m.sender?.name ?? '—'}
                  </Typography>
                )}
                {/* Text, never HTML (DOMAIN §14): React escapes it. */}
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {m.message}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDate(m.createdAt)} {formatTime(m.createdAt)}
                </Typography>
              </Paper>
            </Box>
          );
        })}
      </Box>
      <Stack direction="row" spacing={1} sx={{ p: 1, borderTop: 1, borderColor: 'divider' }}>
        <TextField
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          placeholder={t('chatsPage.placeholder')}
          fullWidth
          multiline
          maxRows={4}
          size="small"
          slotProps={{ htmlInput: { 'data-testid': 'chat-input', maxLength: 4096 } }}
        />
        <IconButton color="primary" aria-label={t('chatsPage.send')} onClick={submit} data-testid="chat-send">
          <Send />
        </IconButton>
      </Stack>
    </Stack>
  );
}

/** Spec part 2 §2 "Internal chat": list at the left, conversation at the right; two tabs on narrow screens. */
export default function ChatsPage() {
  const { t } = useTranslation();
  const { id: uuid } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  const [dialog, setDialog] = useState<{ record: Chat | null } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const list = useInfiniteList(chatKeys.list, (page) => chatsApi.list(page));
  const chats = chatsOf(list.data);
  const listed = uuid ? chats.find((c) => c.uuid === uuid) : undefined;
  // A chat not on the loaded pages (an old one opened from a link): fetched by its uuid.
  const fetched = useQuery({
    queryKey: chatKeys.detail(uuid ?? ''),
    queryFn: () => chatsApi.show(uuid as string),
    enabled: Boolean(uuid) && !listed && !list.isPending,
    retry: false,
  });
  const selected = listed ?? (uuid ? fetched.data : undefined);

  useChatsLive((id) => {
    if (selected?.id === id) navigate('/chats');
  });

  const open = (chat: Chat) => {
    navigate(`/chats/${chat.uuid}`);
    setTab('messages');
  };
  const remove = useMutation({
    mutationFn: (chat: Chat) => chatsApi.remove(chat.id),
    onSuccess: (_r, chat) => {
      removeChat(queryClient, chat.id);
      navigate('/chats');
      setTab('chats');
    },
  });

  const listPane = (
    <Stack sx={{ height: '100%', minHeight: 0 }}>
      <Stack direction="row" sx={{ p: 1, justifyContent: 'flex-end', borderBottom: 1, borderColor: 'divider' }}>
        <Button
          startIcon={<Add />}
          variant="contained"
          onClick={() => setDialog({ record: null })}
          data-testid="chat-new"
        >
          {t('chatsPage.new')}
        </Button>
      </Stack>
      <ChatList chats={chats} selectedId={selected?.id ?? null} onSelect={open} list={list} />
    </Stack>
  );
  const conversationPane = selected ? (
    <Conversation
      key={selected.id}
      chat={selected}
      onEdit={() => setDialog({ record: selected })}
      onDelete={() => setConfirmDelete(true)}
    />
  ) : (
    <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
      <Typography color="text.secondary" data-testid="chat-none">
        {t('chatsPage.select')}
      </Typography>
    </Box>
  );

  return (
    <Box sx={{ p: { xs: 1, md: 2 }, height: 'calc(100vh - 64px)', boxSizing: 'border-box' }} data-testid="chats-page">
      <Paper variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
        {wide ? (
          <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
            <Box sx={{ width: '33.33%', borderRight: 1, borderColor: 'divider', minHeight: 0 }}>{listPane}</Box>
            <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>{conversationPane}</Box>
          </Box>
        ) : (
          <>
            <Tabs value={tab} onChange={(_e, value) => setTab(value)} variant="fullWidth" data-testid="chat-tabs">
              <Tab value="chats" label={t('chatsPage.chats')} data-testid="chat-tab-chats" />
              <Tab value="messages" label={t('chatsPage.messages')} data-testid="chat-tab-messages" />
            </Tabs>
            <Box sx={{ flex: 1, minHeight: 0 }}>{tab === 'chats' ? listPane : conversationPane}</Box>
          </>
        )}
      </Paper>
      <ChatDialog
        open={dialog !== null}
        record={dialog?.record ?? null}
        onClose={() => setDialog(null)}
        onSaved={(chat) => {
          upsertChat(queryClient, chat);
          if (!dialog?.record) open(chat);
        }}
      />
      <ConfirmationModal
        open={confirmDelete}
        title={t('chatsPage.deleteTitle')}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => selected && remove.mutate(selected)}
      >
        {t('chatsPage.deleteMessage')}
      </ConfirmationModal>
    </Box>
  );
}
