import { CONTACT_DRAWER_WIDTH_PX, type Ticket } from '@balcao/shared';
import Close from '@mui/icons-material/Close';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { PersonAvatar } from '../../components/PersonAvatar';
import { ContactEditModal } from './ContactEditModal';
import { TicketNotes } from './TicketNotes';
import { contactsApi } from './ticketsApi';

/** The contact panel at the right of the chat (320 px): header, edit, notes and extra information. */
export function ContactDrawer({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const contact = useQuery({
    queryKey: queryKeys.tickets.contact(ticket.contactId),
    queryFn: () => contactsApi.show(ticket.contactId),
  });
  const extraInfo = contact.data?.extraInfo ?? [];

  return (
    <Paper
      variant="outlined"
      data-testid="contact-drawer"
      sx={{
        width: { xs: '100%', sm: CONTACT_DRAWER_WIDTH_PX },
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
        position: { xs: 'absolute', lg: 'static' },
        right: 0,
        top: 0,
        bottom: 0,
        zIndex: 3,
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 1, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <IconButton onClick={onClose} aria-label={t('common.close')} data-testid="contact-drawer-close">
          <Close />
        </IconButton>
        <Typography sx={{ fontWeight: 700, ml: 1 }}>{t('tickets.contact.title')}</Typography>
      </Stack>
      <Box sx={{ flex: 1, overflowY: 'auto', p: 2 }}>
        <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <PersonAvatar
            name={ticket.contact.name}
            src={ticket.contact.profilePicUrl}
            size={96}
            data-testid="contact-drawer-avatar"
          />
          <Typography variant="h6" sx={{ wordBreak: 'break-word' }} data-testid="contact-drawer-name">
            {ticket.contact.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {ticket.contact.number}
          </Typography>
          {ticket.contact.email && (
            <Typography variant="body2" color="text.secondary">
              {ticket.contact.email}
            </Typography>
          )}
          <Button
            variant="outlined"
            size="small"
            startIcon={<EditOutlined />}
            onClick={() => setEditing(true)}
            data-testid="contact-edit-button"
          >
            {t('tickets.contact.edit')}
          </Button>
        </Stack>
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {t('tickets.notes.title')}
        </Typography>
        <TicketNotes ticketId={ticket.id} contactId={ticket.contactId} />
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {t('tickets.contact.extraInfo')}
        </Typography>
        {extraInfo.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('tickets.contact.noExtraInfo')}
          </Typography>
        ) : (
          <Stack spacing={1} data-testid="contact-extra-info">
            {extraInfo.map((info) => (
              <Paper key={info.id ?? info.name} variant="outlined" sx={{ px: 1.5, py: 1 }}>
                <Typography variant="caption" color="text.secondary">
                  {info.name}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                  {info.value}
                </Typography>
              </Paper>
            ))}
          </Stack>
        )}
      </Box>
      <ContactEditModal contactId={ticket.contactId} open={editing} onClose={() => setEditing(false)} />
    </Paper>
  );
}
