import { KANBAN_OPEN_LANE, type Tag, type Ticket } from '@balcao/shared';
import { useDraggable } from '@dnd-kit/core';
import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readableTextOn } from '../../components/colorContrast';
import { PersonAvatar } from '../../components/PersonAvatar';
import type { LaneKey } from './kanbanApi';

export const cardDragId = (ticketId: number) => `ticket:${ticketId}`;

interface CardBodyProps {
  ticket: Ticket;
  /** The menu's actions; none on the floating copy shown while dragging. */
  actions?: ReactNode;
}

/** What a card shows: contact, last message, queue and user. */
export function KanbanCardBody({ ticket, actions }: CardBodyProps) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.75} sx={{ p: 1.25 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <PersonAvatar name={ticket.contact.name} src={ticket.contact.profilePicUrl} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography noWrap sx={{ fontWeight: 600 }} data-testid={`kanban-card-contact-${ticket.id}`}>
            {ticket.contact.name}
          </Typography>
          <Typography noWrap variant="caption" color="text.secondary" component="div">
            #{ticket.id} · {ticket.contact.number}
          </Typography>
        </Box>
        {actions}
      </Stack>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical' }}
      >
        {ticket.lastMessage || t('kanban.noMessage')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
        <Chip
          size="small"
          label={ticket.queue?.name ?? t('kanban.noQueue')}
          sx={ticket.queue ? { bgcolor: ticket.queue.color, color: readableTextOn(ticket.queue.color) } : undefined}
        />
        <Chip size="small" variant="outlined" label={ticket.user?.name ?? t('kanban.noUser')} />
      </Stack>
    </Stack>
  );
}

interface KanbanCardProps {
  ticket: Ticket;
  lane: LaneKey;
  lanes: readonly Tag[];
  selected: boolean;
  onOpen: (ticket: Ticket) => void;
  onMove: (ticket: Ticket, to: LaneKey) => void;
}

/**
 * A ticket on the board: dragged with the mouse, a finger or the keyboard (space, arrows, space),
 * clicked to open its chat; its menu moves it without dragging (small screens, screen readers).
 */
export function KanbanCard({ ticket, lane, lanes, selected, onOpen, onMove }: KanbanCardProps) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: cardDragId(ticket.id),
    data: { ticket },
  });
  const targets: { key: LaneKey; name: string }[] = [
    { key: KANBAN_OPEN_LANE as LaneKey, name: t('kanban.openLane') },
    ...lanes.map((l) => ({ key: l.id as LaneKey, name: l.name })),
  ].filter((target) => target.key !== lane);
  return (
    <Card
      ref={setNodeRef}
      variant="outlined"
      data-testid={`kanban-card-${ticket.id}`}
      aria-label={t('kanban.cardLabel', { name: ticket.contact.name, id: ticket.id })}
      {...attributes}
      {...listeners}
      onClick={() => onOpen(ticket)}
      sx={{
        cursor: 'grab',
        flexShrink: 0,
        opacity: isDragging ? 0.4 : 1,
        borderColor: selected ? 'primary.main' : undefined,
        touchAction: 'manipulation',
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main' },
      }}
    >
      <KanbanCardBody
        ticket={ticket}
        actions={
          <>
            <IconButton
              size="small"
              aria-label={t('kanban.moveTo')}
              data-testid={`kanban-card-menu-${ticket.id}`}
              onPointerDown={(e) => e.stopPropagation()}
              onKeyDown={(e) => e.stopPropagation()}
              onClick={(e) => {
                e.stopPropagation();
                setMenu(e.currentTarget);
              }}
            >
              <MoreVert fontSize="small" />
            </IconButton>
            <Menu
              anchorEl={menu}
              open={menu !== null}
              onClose={() => setMenu(null)}
              onClick={(e) => e.stopPropagation()}
            >
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  onOpen(ticket);
                }}
              >
                {t('kanban.openChat')}
              </MenuItem>
              {targets.map((target) => (
                <MenuItem
                  key={String(target.key)}
                  data-testid={`kanban-move-${ticket.id}-${target.key}`}
                  onClick={() => {
                    setMenu(null);
                    onMove(ticket, target.key);
                  }}
                >
                  {t('kanban.moveToLane', { lane: target.name })}
                </MenuItem>
              ))}
            </Menu>
          </>
        }
      />
    </Card>
  );
}
