import { can, type Ticket } from '@balcao/shared';
import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import CheckBox from '@mui/icons-material/CheckBox';
import MoveToInbox from '@mui/icons-material/MoveToInbox';
import Search from '@mui/icons-material/Search';
import Autocomplete from '@mui/material/Autocomplete';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { SearchField } from '../../components/SearchField';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { NewTicketModal } from './NewTicketModal';
import { useNotificationCount } from './notifications';
import { QueueFilter } from './QueueFilter';
import { TicketPeekDialog } from './TicketPeekDialog';
import { TicketsListView } from './TicketsListView';
import { type TicketListFilter, useTagOptions, useUserOptions } from './ticketsApi';
import { listedTickets, useTicketsList } from './ticketsQueries';
import { useSelectedQueues } from './useSelectedQueues';
import { useTicketActions } from './useTicketActions';

type MainTab = 'open' | 'closed' | 'search';
type OpenTab = 'open' | 'pending';

function CountLabel({ label, count, testId }: { label: string; count: number; testId: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <span>{label}</span>
      <Chip
        size="small"
        label={count}
        color={count > 0 ? 'primary' : 'default'}
        data-testid={testId}
        sx={{ height: 20, minWidth: 24, fontWeight: 700, '& .MuiChip-label': { px: 0.75 } }}
      />
    </Stack>
  );
}

/**
 * The ticket list side of the screen: open (assigned / pending), closed and search tabs, the new
 * ticket button, the show-all switch and the queue filter (spec §2).
 */
export function TicketsManager({ selectedUuid }: { selectedUuid?: string }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const admin = can(me.profile, 'tickets-manager:showall');
  const actions = useTicketActions();
  const notifications = useNotificationCount();
  const queues = useSelectedQueues();
  const [tab, setTab] = useState<MainTab>('open');
  const [openTab, setOpenTab] = useState<OpenTab>('open');
  const [showAll, setShowAll] = useState(admin);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const [tagFilter, setTagFilter] = useState<number[]>([]);
  const [userFilter, setUserFilter] = useState<number[]>([]);
  const [newTicket, setNewTicket] = useState(false);
  const [peek, setPeek] = useState<Ticket | null>(null);
  const tags = useTagOptions(tab === 'search');
  const users = useUserOptions(tab === 'search' && admin);

  const queueIds = useMemo(() => [...queues.selected].sort((a, b) => a - b), [queues.selected]);
  const filters = useMemo(() => {
    const open: TicketListFilter = { status: 'open', showAll, queueIds };
    const pending: TicketListFilter = { status: 'pending', showAll, queueIds };
    const closed: TicketListFilter = { status: 'closed', showAll: true, queueIds };
    const searched: TicketListFilter = { showAll: true, queueIds, searchParam, tags: tagFilter, users: userFilter };
    return { open, pending, closed, searched };
  }, [showAll, queueIds, searchParam, tagFilter, userFilter]);

  const openList = useTicketsList(filters.open, queues.ready);
  const pendingList = useTicketsList(filters.pending, queues.ready);
  const closedList = useTicketsList(filters.closed, queues.ready && tab === 'closed');
  const searchList = useTicketsList(filters.searched, queues.ready && tab === 'search');
  const current =
    tab === 'closed' ? closedList : tab === 'search' ? searchList : openTab === 'open' ? openList : pendingList;

  function onSearch(value: string) {
    setSearch(value);
    // Clearing the search goes back to the open tickets.
    if (value === '') setTab('open');
  }

  return (
    <Paper
      variant="outlined"
      data-testid="tickets-manager"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Tabs
        value={tab}
        onChange={(_, value: MainTab) => setTab(value)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 56 }}
      >
        <Tab
          value="open"
          data-testid="tab-open"
          onClick={() => setOpenTab('open')}
          icon={
            <Badge color="error" badgeContent={notifications} max={99} data-testid="notification-badge">
              <MoveToInbox fontSize="small" />
            </Badge>
          }
          iconPosition="start"
          label={t('tickets.tabs.open')}
          sx={{ minHeight: 56 }}
        />
        <Tab
          value="closed"
          data-testid="tab-closed"
          icon={<CheckBox fontSize="small" />}
          iconPosition="start"
          label={t('tickets.tabs.closed')}
          sx={{ minHeight: 56 }}
        />
        <Tab
          value="search"
          data-testid="tab-search"
          icon={<Search fontSize="small" />}
          iconPosition="start"
          label={t('tickets.tabs.search')}
          sx={{ minHeight: 56 }}
        />
      </Tabs>

      {tab === 'search' ? (
        <Stack spacing={1} sx={{ p: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <SearchField
            value={search}
            onChange={onSearch}
            placeholder={t('tickets.search.placeholder')}
            testId="ticket-search"
            ariaLabel={t('tickets.tabs.search')}
            autoFocus
          />
          <Autocomplete
            multiple
            size="small"
            options={tags.data ?? []}
            value={(tags.data ?? []).filter((tag) => tagFilter.includes(tag.id))}
            onChange={(_, value) => setTagFilter(value.map((tag) => tag.id))}
            getOptionLabel={(tag) => tag.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => (
              <TextField
                {...params}
                placeholder={tagFilter.length ? '' : t('tickets.search.tags')}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'tags-filter' },
                }}
              />
            )}
          />
          {admin && (
            <Autocomplete
              multiple
              size="small"
              options={users.data ?? []}
              value={(users.data ?? []).filter((user) => userFilter.includes(user.id))}
              onChange={(_, value) => setUserFilter(value.map((user) => user.id))}
              getOptionLabel={(user) => user.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => (
                <TextField
                  {...params}
                  placeholder={userFilter.length ? '' : t('tickets.search.users')}
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'users-filter' },
                  }}
                />
              )}
            />
          )}
        </Stack>
      ) : (
        <Stack
          direction="row"
          sx={{
            alignItems: 'center',
            flexWrap: 'wrap',
            gap: 1,
            px: 1.5,
            py: 1,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Button
            variant="contained"
            size="small"
            startIcon={<AddCircleOutline />}
            onClick={() => setNewTicket(true)}
            data-testid="new-ticket-button"
          >
            {t('tickets.newTicket.button')}
          </Button>
          {admin && (
            <FormControlLabel
              sx={{ mr: 0 }}
              control={
                <Switch
                  size="small"
                  checked={showAll}
                  onChange={(event) => setShowAll(event.target.checked)}
                  data-testid="show-all-switch"
                />
              }
              label={t('tickets.showAll')}
              slotProps={{ typography: { variant: 'body2' } }}
            />
          )}
          <Box sx={{ flex: 1 }} />
          <QueueFilter queues={queues} testId="queue" />
        </Stack>
      )}

      {tab === 'open' && (
        <Tabs
          value={openTab}
          onChange={(_, value: OpenTab) => setOpenTab(value)}
          variant="fullWidth"
          sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 44 }}
        >
          <Tab
            value="open"
            data-testid="tab-assigned"
            sx={{ minHeight: 44 }}
            label={
              <CountLabel
                label={t('tickets.tabs.assigned')}
                count={openList.data?.pages[0]?.count ?? 0}
                testId="count-open"
              />
            }
          />
          <Tab
            value="pending"
            data-testid="tab-pending"
            sx={{ minHeight: 44 }}
            label={
              <CountLabel
                label={t('tickets.tabs.pending')}
                count={pendingList.data?.pages[0]?.count ?? 0}
                testId="count-pending"
              />
            }
          />
        </Tabs>
      )}

      <TicketsListView
        key={`${tab}-${openTab}`}
        tickets={listedTickets(current.data)}
        loading={!queues.ready || current.isPending}
        loadingMore={current.isFetchingNextPage}
        hasMore={current.hasNextPage}
        loadMore={() => void current.fetchNextPage()}
        selectedUuid={selectedUuid}
        busyId={actions.busyId}
        onOpen={(ticket) => navigate(`/tickets/${ticket.uuid}`)}
        onAccept={(ticket) =>
          actions.accept(ticket, () => {
            setTab('open');
            setOpenTab('open');
          })
        }
        onResolve={(ticket) => actions.resolve(ticket, ticket.uuid === selectedUuid)}
        onReopen={(ticket) => actions.reopen(ticket)}
        // Every pending ticket listed is one the user may read (the server's visibility rule): agents
        // peek at their queues' tickets, admins at any ticket (spec §6).
        onPeek={setPeek}
      />
      <NewTicketModal open={newTicket} onClose={() => setNewTicket(false)} />
      <TicketPeekDialog ticket={peek} onClose={() => setPeek(null)} />
      {actions.dialog}
    </Paper>
  );
}
