import type { Ticket } from '@balcao/shared';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PersonAvatar } from '../../components/PersonAvatar';
import { MessagesList } from '../messages/MessagesList';

/** Admins' read-only look at a pending ticket's messages (no reply, no menus). */
export function TicketPeekDialog({ ticket, onClose }: { ticket: Ticket | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={ticket !== null} onClose={onClose} fullWidth maxWidth="md" data-testid="ticket-peek">
      {ticket && (
        <>
          <DialogTitle>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              <PersonAvatar name={ticket.contact.name} src={ticket.contact.profilePicUrl} />
              <div>
                <Typography sx={{ fontWeight: 700 }}>{ticket.contact.name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('tickets.peekSubtitle', { number: ticket.contact.number })}
                </Typography>
              </div>
            </Stack>
          </DialogTitle>
          <DialogContent dividers sx={{ p: 0, height: '60vh', display: 'flex', flexDirection: 'column' }}>
            <MessagesList key={ticket.id} ticket={ticket} readOnly testId="peek-message-list" />
          </DialogContent>
        </>
      )}
      <DialogActions>
        <Button onClick={onClose} data-testid="ticket-peek-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
