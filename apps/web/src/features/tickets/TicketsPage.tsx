import Forum from '@mui/icons-material/ForumOutlined';
import MoveToInbox from '@mui/icons-material/MoveToInbox';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { useMessagesRealtime } from '../messages/useMessagesRealtime';
import { TicketChat } from './TicketChat';
import { TicketsManager } from './TicketsManager';
import { usePickersRealtime, useTicketsRealtime, viewerOf } from './ticketsQueries';

function Placeholder() {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      data-testid="ticket-placeholder"
      sx={{ height: '100%', display: 'grid', placeItems: 'center', textAlign: 'center', p: 3 }}
    >
      <Stack spacing={2} sx={{ alignItems: 'center' }}>
        <Box component="img" src="/favicon.svg" alt="" sx={{ width: 120, height: 120, opacity: 0.85 }} />
        <Typography variant="h6" color="text.secondary">
          {t('tickets.placeholder')}
        </Typography>
      </Stack>
    </Paper>
  );
}

type NarrowTab = 'ticket' | 'list';

/** The page's heading, for assistive technology only (the tabs and chat say the rest). */
function HiddenTitle() {
  const { t } = useTranslation();
  return (
    <Typography
      component="h1"
      data-testid="page-title"
      sx={{
        position: 'absolute',
        width: '1px',
        height: '1px',
        m: '-1px',
        p: 0,
        overflow: 'hidden',
        clip: 'rect(0 0 0 0)',
        whiteSpace: 'nowrap',
      }}
    >
      {t('pages.tickets')}
    </Typography>
  );
}

/**
 * /tickets and /tickets/:uuid (spec §2): the list at the left (4/12) and the chat at the right
 * (8/12) on wide screens; below md, "Ticket" and "Atendimentos" tabs.
 */
export default function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const me = useSessionUser();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [narrowTab, setNarrowTab] = useState<NarrowTab>(ticketId ? 'ticket' : 'list');

  useTicketsRealtime(me.companyId, viewerOf(me));
  usePickersRealtime(me.companyId);
  useMessagesRealtime(me.companyId);

  // Opening a ticket on a narrow screen shows it.
  useEffect(() => {
    if (ticketId) setNarrowTab('ticket');
  }, [ticketId]);

  const chat = ticketId ? <TicketChat key={ticketId} uuid={ticketId} /> : <Placeholder />;

  if (wide)
    return (
      <Box sx={{ display: 'flex', gap: 1.5, height: '100%', p: 1.5, minHeight: 0 }} data-testid="tickets-page">
        <HiddenTitle />
        <Box sx={{ width: `${(4 / 12) * 100}%`, minWidth: 0, height: '100%' }}>
          <TicketsManager selectedUuid={ticketId} />
        </Box>
        <Box sx={{ width: `${(8 / 12) * 100}%`, minWidth: 0, height: '100%' }}>{chat}</Box>
      </Box>
    );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="tickets-page">
      <HiddenTitle />
      <Tabs
        value={narrowTab}
        onChange={(_, value: NarrowTab) => setNarrowTab(value)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      >
        <Tab
          value="ticket"
          icon={<Forum />}
          iconPosition="start"
          label={t('tickets.narrow.ticket')}
          data-testid="tab-ticket"
        />
        <Tab
          value="list"
          icon={<MoveToInbox />}
          iconPosition="start"
          label={t('tickets.narrow.list')}
          data-testid="tab-list"
        />
      </Tabs>
      <Box sx={{ flex: 1, minHeight: 0, p: 1 }}>
        {narrowTab === 'list' ? (
          <TicketsManager selectedUuid={ticketId} />
        ) : ticketId ? (
          chat
        ) : (
          <Paper variant="outlined" sx={{ height: '100%', display: 'grid', placeItems: 'center' }}>
            <Button variant="contained" onClick={() => setNarrowTab('list')} data-testid="select-ticket-button">
              {t('tickets.narrow.select')}
            </Button>
          </Paper>
        )}
      </Box>
    </Box>
  );
}
