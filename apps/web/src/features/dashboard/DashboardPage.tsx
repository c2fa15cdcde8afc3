import {
  DASHBOARD_PERIOD_DAYS,
  type DashboardCounters,
  type DashboardQuery,
  type DashboardReply,
  formatDueDate,
} from '@balcao/shared';
import AccessTime from '@mui/icons-material/AccessTime';
import EventAvailable from '@mui/icons-material/EventAvailable';
import FilterList from '@mui/icons-material/FilterList';
import Forum from '@mui/icons-material/Forum';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import MarkChatRead from '@mui/icons-material/MarkChatRead';
import PersonAdd from '@mui/icons-material/PersonAdd';
import TaskAlt from '@mui/icons-material/TaskAlt';
import Timer from '@mui/icons-material/Timer';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { PageContainer } from '../../components/PageContainer';
import { AttendantsTable } from './AttendantsTable';
import { cardTime, type DashboardFilter, defaultFilter, queryOf } from './dashboardFormat';
import { HourlyChart } from './HourlyChart';
import { useDashboard } from './useDashboard';

interface CardProps {
  id: string;
  title: string;
  icon: ReactNode;
  /** Undefined while loading. */
  value: string | undefined;
  /** A second line (the median next to an average). */
  caption?: string;
}

function Card({ id, title, icon, value, caption }: CardProps) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={`card-${id}`}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Box sx={{ color: 'primary.main', display: 'flex' }}>{icon}</Box>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </Stack>
      {value === undefined ? (
        <Skeleton variant="text" sx={{ fontSize: '2rem', width: '60%' }} data-testid={`card-${id}-loading`} />
      ) : (
        <Typography variant="h4" component="p" sx={{ fontWeight: 700, mt: 1 }} data-testid={`card-${id}-value`}>
          {value}
        </Typography>
      )}
      {caption && value !== undefined && (
        <Typography variant="caption" color="text.secondary" data-testid={`card-${id}-caption`}>
          {caption}
        </Typography>
      )}
    </Paper>
  );
}

/** The six cards of spec part 2 §2 plus the first response time, each average beside its median. */
function Counters({ counters }: { counters: DashboardCounters | undefined }) {
  const { t } = useTranslation();
  const count = (n: number | undefined) => (n === undefined ? undefined : String(n));
  const time = (minutes: number | null | undefined) =>
    minutes === undefined ? undefined : (cardTime(minutes) ?? t('dashboard.na'));
  const median = (minutes: number | null | undefined) =>
    minutes === undefined || minutes === null ? undefined : t('dashboard.median', { time: cardTime(minutes) });
  const cards: CardProps[] = [
    {
      id: 'pending',
      title: t('dashboard.cards.pending'),
      icon: <HourglassEmpty />,
      value: count(counters?.supportPending),
    },
    {
      id: 'happening',
      title: t('dashboard.cards.happening'),
      icon: <Forum />,
      value: count(counters?.supportHappening),
    },
    {
      id: 'finished',
      title: t('dashboard.cards.finished'),
      icon: <TaskAlt />,
      value: count(counters?.supportFinished),
    },
    { id: 'leads', title: t('dashboard.cards.leads'), icon: <PersonAdd />, value: count(counters?.leads) },
    {
      id: 'supportTime',
      title: t('dashboard.cards.supportTime'),
      icon: <AccessTime />,
      value: time(counters?.avgSupportTime),
      caption: median(counters?.medianSupportTime),
    },
    {
      id: 'waitTime',
      title: t('dashboard.cards.waitTime'),
      icon: <Timer />,
      value: time(counters?.avgWaitTime),
      caption: median(counters?.medianWaitTime),
    },
    {
      id: 'firstResponse',
      title: t('dashboard.cards.firstResponse'),
      icon: <MarkChatRead />,
      value: time(counters?.firstResponseTime),
      caption: median(counters?.medianFirstResponseTime),
    },
  ];
  return (
    <Grid container spacing={2}>
      {cards.map((card) => (
        <Grid key={card.id} size={{ xs: 6, md: 4, lg: 3 }}>
          <Card {...card} />
        </Grid>
      ))}
    </Grid>
  );
}

/** 'Filtro por Data' (start and end) or 'Filtro por Período' (none, 3 … 90 days), applied by 'Filtrar'. */
function FilterBar({
  filter,
  onChange,
  onApply,
}: {
  filter: DashboardFilter;
  onChange: (filter: DashboardFilter) => void;
  onApply: () => void;
}) {
  const { t } = useTranslation();
  const dateProps = { type: 'date', size: 'small', slotProps: { inputLabel: { shrink: true } } } as const;
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label={t('dashboard.filter.type')}
          value={filter.mode}
          onChange={(e) => onChange(e.target.value === 'period' ? { mode: 'period', days: null } : defaultFilter())}
          sx={{ minWidth: 180 }}
          slotProps={{ htmlInput: { 'data-testid': 'dashboard-filter-type' } }}
        >
          <MenuItem value="date">{t('dashboard.filter.byDate')}</MenuItem>
          <MenuItem value="period">{t('dashboard.filter.byPeriod')}</MenuItem>
        </TextField>
        {filter.mode === 'date' ? (
          <>
            <TextField
              {...dateProps}
              label={t('dashboard.filter.from')}
              value={filter.from}
              onChange={(e) => onChange({ ...filter, from: e.target.value })}
              slotProps={{ ...dateProps.slotProps, htmlInput: { 'data-testid': 'dashboard-from' } }}
            />
            <TextField
              {...dateProps}
              label={t('dashboard.filter.to')}
              value={filter.to}
              onChange={(e) => onChange({ ...filter, to: e.target.value })}
              slotProps={{ ...dateProps.slotProps, htmlInput: { 'data-testid': 'dashboard-to' } }}
            />
          </>
        ) : (
          <TextField
            select
            size="small"
            label={t('dashboard.filter.period')}
            value={filter.days ?? ''}
            onChange={(e) => onChange({ mode: 'period', days: e.target.value ? Number(e.target.value) : null })}
            sx={{ minWidth: 180 }}
            slotProps={{ htmlInput: { 'data-testid': 'dashboard-days' } }}
          >
            <MenuItem value="">{t('dashboard.filter.none')}</MenuItem>
            {DASHBOARD_PERIOD_DAYS.map((days) => (
              <MenuItem key={days} value={days}>
                {t('dashboard.filter.lastDays', { count: days })}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Button variant="contained" startIcon={<FilterList />} onClick={onApply} data-testid="dashboard-apply">
          {t('dashboard.filter.apply')}
        </Button>
      </Stack>
    </Paper>
  );
}

function DueDateCard() {
  const { t } = useTranslation();
  const { dueDate } = useSessionUser().company;
  return (
    <Card
      id="dueDate"
      title={t('dashboard.cards.dueDate')}
      icon={<EventAvailable />}
      value={dueDate ? formatDueDate(dueDate) : t('dashboard.na')}
    />
  );
}

/** Nothing happened yet: a company without tickets, or a quiet period. */
const isEmpty = (data: DashboardReply) => {
  const c = data.counters;
  return (
    c.supportPending + c.supportHappening + c.supportFinished + c.leads === 0 && data.hourly.every((h) => !h.count)
  );
};

/** Dashboard (`/`, admins): spec part 2 §2 with the rules of DOMAIN §9. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<DashboardFilter>(() => defaultFilter());
  const [applied, setApplied] = useState<DashboardQuery>(() => queryOf(defaultFilter()) ?? {});
  const dashboard = useDashboard(applied);
  const data = dashboard.data;

  useEffect(() => {
    if (dashboard.error) console.error('dashboard: load failed', dashboard.error);
  }, [dashboard.error]);

  const apply = () => {
    const query = queryOf(filter);
    if (!query) return void toast.info(t('dashboard.filter.required'), { toastId: 'dashboard-filter' });
    setApplied(query);
  };

  const total = data?.hourly.reduce((sum, h) => sum + h.count, 0);
  return (
    <PageContainer title={t('pages.dashboard')}>
      <Box sx={{ overflowY: 'auto', minHeight: 0, display: 'flex', flexDirection: 'column', gap: 2, pb: 2 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 3 }}>
            <DueDateCard />
          </Grid>
          <Grid size={{ xs: 12, md: 9 }}>
            <FilterBar filter={filter} onChange={setFilter} onApply={apply} />
          </Grid>
        </Grid>
        {dashboard.isError && !data && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void dashboard.refetch()}>
                {t('dashboard.retry')}
              </Button>
            }
          >
            {t('dashboard.loadError')}
          </Alert>
        )}
        {data && isEmpty(data) && (
          <Alert severity="info" data-testid="dashboard-empty">
            {t('dashboard.empty')}
          </Alert>
        )}
        <Counters counters={data?.counters} />
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
              {t('dashboard.chart.title')}
            </Typography>
            {total !== undefined && (
              <Typography variant="body2" color="text.secondary" data-testid="dashboard-chart-total">
                {t('dashboard.chart.series', { total })}
              </Typography>
            )}
          </Stack>
          {data ? (
            <HourlyChart hourly={data.hourly} />
          ) : (
            <Skeleton variant="rounded" height={260} data-testid="dashboard-chart-loading" />
          )}
        </Paper>
        {data && <AttendantsTable attendants={data.attendants} />}
      </Box>
    </PageContainer>
  );
}
