import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Badge from '@mui/material/Badge';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { useInfiniteList } from '../../components/useInfiniteList';
import { TopBarPopover, TopBarPopoverList } from '../../layout/TopBarPopover';
import { chatKeys, chatsApi, unreadsOf } from './chatsApi';
import { chatsOf } from './chatsCache';
import { useChatSound, useChatsLive } from './useChatsLive';

/** The top bar's internal chat (spec part 1 §2): the chats with unread counts, a total badge; a click opens the chat. */
export function ChatsPopover() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const list = useInfiniteList(chatKeys.list, (page) => chatsApi.list(page));
  const chats = chatsOf(list.data);
  useChatsLive();
  useChatSound(chats);
  const total = chats.reduce((sum, chat) => sum + unreadsOf(chat, me.id), 0);

  return (
    <TopBarPopover
      label={t('chatsPage.popover')}
      icon={<ForumOutlined />}
      badgeContent={total}
      testId="chats"
      badgeTestId="chats-unread"
      buttonData={{ 'data-unread': total }}
      title={t('chatsPage.popover')}
      width={360}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
    >
      <TopBarPopoverList
        list={list}
        empty={chats.length === 0}
        emptyText={t('chatsPage.popoverEmpty')}
        testId="chats-popover-list"
        emptyTestId="chats-popover-empty"
        maxHeight={{ xs: 'calc(100vh - 160px)', sm: 420 }}
      >
        {chats.map((chat) => (
          <ListItemButton
            key={chat.id}
            divider
            data-testid={`chats-popover-item-${chat.id}`}
            onClick={() => {
              setOpen(false);
              navigate(`/chats/${chat.uuid}`);
            }}
          >
            <ListItemText
              primary={chat.title}
              secondary={chat.lastMessage}
              slotProps={{ secondary: { noWrap: true }, primary: { noWrap: true } }}
            />
            <Badge
              color="primary"
              badgeContent={unreadsOf(chat, me.id)}
              sx={{ ml: 2 }}
              slotProps={{ badge: { 'data-testid': `chats-popover-unread-${chat.id}` } as object }}
            />
          </ListItemButton>
        ))}
      </TopBarPopoverList>
    </TopBarPopover>
  );
}
