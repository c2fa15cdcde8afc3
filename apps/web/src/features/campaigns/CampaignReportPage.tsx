import type { Campaign, Shipping } from '@balcao/shared';
import ArrowBack from '@mui/icons-material/ArrowBack';
import FileDownload from '@mui/icons-material/FileDownload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { SearchField } from '../../components/SearchField';
import { toastError } from '../../components/toastError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { saveBlob } from '../contacts/csv';
import { CampaignStatusChip } from './CampaignStatusChip';
import { campaignKeys, campaignsApi, type ShippingFilter, shippingFilters } from './campaignsApi';
import { formatCampaignDate, useCompanyTimeZone } from './format';
import { useCampaignsRealtime } from './useCampaignsRealtime';

/** Spec part 2 §4 and §9: a report whose campaign is pushed as FINALIZADA reloads after 5 seconds. */
export const CAMPAIGN_REPORT_RELOAD_MS = 5_000;
/** Live progress refetches the counts and the recipients at most this often (one event per recipient). */
export const CAMPAIGN_REPORT_REFRESH_MS = 2_000;

const COLUMNS = ['contact', 'status', 'message', 'sentAt', 'deliveredAt', 'readAt', 'repliedAt', 'detail'] as const;

/** Delivered recipients (read ones too) of the valid contacts: the status line and the progress bar. */
export function deliveredOf(campaign: Campaign): { delivered: number; total: number; percent: number } {
  const { delivered, read, validContacts } = campaign.counts;
  const reached = delivered + read;
  return {
    delivered: reached,
    total: validContacts,
    percent: validContacts > 0 ? Math.min(100, Math.round((reached / validContacts) * 100)) : 0,
  };
}

function CountCard({ id, label, value }: { id: string; label: string; value: string | number }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={`campaign-count-${id}`}>
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
      <Typography
        variant={typeof value === 'number' ? 'h4' : 'subtitle1'}
        component="p"
        sx={{ fontWeight: 700, mt: 1, wordBreak: 'break-word' }}
      >
        {value}
      </Typography>
    </Paper>
  );
}

/** The cards of spec part 2 §2 (confirmation cards only in confirmation mode), plus failures and opt-outs. */
function CountCards({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const { counts } = campaign;
  const date = (iso: string | null, none: string) => (iso ? formatCampaignDate(iso, timeZone) : t(none));
  const cards: { id: string; value: string | number }[] = [
    { id: 'validContacts', value: counts.validContacts },
    ...(campaign.confirmation
      ? [
          { id: 'confirmationRequested', value: counts.confirmationRequested },
          { id: 'confirmed', value: counts.confirmed },
        ]
      : []),
    { id: 'delivered', value: counts.delivered + counts.read },
    { id: 'read', value: counts.read },
    { id: 'failed', value: counts.failed },
    { id: 'skipped', value: counts.skipped },
    { id: 'optedOut', value: counts.optedOut },
    { id: 'whatsapp', value: campaign.whatsapp?.name ?? t('campaigns.noConnection') },
    { id: 'contactList', value: campaign.contactList?.name ?? t('campaigns.noContactList') },
    { id: 'scheduledAt', value: date(campaign.scheduledAt, 'campaigns.notScheduled') },
    { id: 'completedAt', value: date(campaign.completedAt, 'campaigns.notCompleted') },
  ];
  return (
    <Grid container spacing={2}>
      {cards.map((card) => (
        <Grid key={card.id} size={{ xs: 6, sm: 4, lg: 3 }}>
          <CountCard id={card.id} label={t(`campaignReport.cards.${card.id}`)} value={card.value} />
        </Grid>
      ))}
    </Grid>
  );
}

/** Why a recipient failed or was skipped, in words; an unknown code is shown as it is. */
function useReasonText() {
  const { t, i18n } = useTranslation();
  return (reason: string | null) => {
    if (!reason) return '';
    if (i18n.exists(`campaignReport.reasons.${reason}`)) return t(`campaignReport.reasons.${reason}`);
    if (i18n.exists(`backendErrors.${reason}`)) return t(`backendErrors.${reason}`);
    return t('campaignReport.reasonCode', { code: reason });
  };
}

function RecipientRow({ shipping }: { shipping: Shipping }) {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const reasonText = useReasonText();
  const date = (iso: string | null) => (iso ? formatCampaignDate(iso, timeZone) : '—');
  const detail =
    shipping.status === 'failed' || shipping.status === 'skipped'
      ? reasonText(shipping.reason)
      : shipping.confirmationRequestedAt
        ? t(shipping.confirmation ? 'campaignReport.confirmedDetail' : 'campaignReport.awaitingConfirmation')
        : '';
  return (
    <TableRow hover data-testid={`campaign-shipping-${shipping.id}`}>
      <TableCell>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {shipping.name || shipping.number}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {shipping.number}
        </Typography>
      </TableCell>
      <TableCell data-testid={`campaign-shipping-status-${shipping.id}`}>
        <Typography
          variant="body2"
          color={shipping.status === 'failed' ? 'error' : shipping.status === 'skipped' ? 'warning' : undefined}
        >
          {t(`campaignReport.shippingStatus.${shipping.status}`)}
        </Typography>
      </TableCell>
      <TableCell>{shipping.messageIndex ? t('campaignModal.messageTab', { n: shipping.messageIndex }) : '—'}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(shipping.sentAt)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(shipping.deliveredAt)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(shipping.readAt)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(shipping.repliedAt)}</TableCell>
      <TableCell data-testid={`campaign-shipping-detail-${shipping.id}`} sx={{ minWidth: 180 }}>
        {detail}
      </TableCell>
    </TableRow>
  );
}

/** The delivered-of-valid line and its progress bar. */
function Progress({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const { delivered, total, percent } = deliveredOf(campaign);
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1.5 }}>
        <CampaignStatusChip status={campaign.status} testId="campaign-report-status" />
        <Typography sx={{ fontWeight: 600, flexGrow: 1 }} data-testid="campaign-status-line">
          {t('campaignReport.statusLine', { delivered, total })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {percent}%
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t('campaignReport.progress')}
        data-testid="campaign-progress"
        sx={{ height: 10, borderRadius: 5 }}
      />
    </Paper>
  );
}

/** /campaign/{campaignId}/report (spec part 2 §2; DOMAIN §8: per recipient, live, CSV export). */
export default function CampaignReportPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const campaignId = Number(useParams().campaignId);
  const valid = Number.isInteger(campaignId) && campaignId > 0;
  const [filter, setFilter] = useState<ShippingFilter>('all');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());

  const campaign = useQuery({
    queryKey: campaignKeys.detail(campaignId),
    queryFn: () => campaignsApi.show(campaignId),
    enabled: valid,
  });
  const recipients = useInfiniteList(campaignKeys.shippingList(campaignId, filter, searchParam), (page) =>
    campaignsApi.shipping(campaignId, filter, searchParam, page),
  );

  // Live progress: one refetch per period however many recipients moved; FINALIZADA reloads after 5 s.
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      clearTimeout(refreshTimer.current);
      clearTimeout(reloadTimer.current);
    },
    [],
  );
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) });
    void queryClient.invalidateQueries({ queryKey: campaignKeys.shipping(campaignId) });
  };
  useCampaignsRealtime((event) => {
    if ((event.action === 'delete' ? event.id : event.record.id) !== campaignId) return;
    if (event.action === 'delete') {
      navigate('/campaigns');
      return;
    }
    // The pushed record already carries the counts; the refetch brings the recipients along.
    if (event.record.status === 'FINALIZADA')
      reloadTimer.current ??= setTimeout(() => {
        reloadTimer.current = undefined;
        reload();
      }, CAMPAIGN_REPORT_RELOAD_MS);
    else
      refreshTimer.current ??= setTimeout(() => {
        refreshTimer.current = undefined;
        reload();
      }, CAMPAIGN_REPORT_REFRESH_MS);
  });

  const rows = recipients.data?.pages.flatMap((page) => page.records) ?? [];
  const exportCsv = () =>
    void campaignsApi
      .exportShipping(campaignId)
      .then((blob) => saveBlob(blob, `campanha-${campaignId}.csv`), toastError);

  return (
    <PageContainer
      title={<span data-testid="campaign-report-title">{campaign.data?.name ?? t('pages.campaignReport')}</span>}
      actions={
        <>
          <Button startIcon={<ArrowBack />} onClick={() => navigate('/campaigns')} data-testid="campaign-report-back">
            {t('campaignReport.back')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            disabled={!campaign.data}
            onClick={exportCsv}
            data-testid="campaign-report-export"
          >
            {t('campaignReport.export')}
          </Button>
        </>
      }
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, flex: 1, minHeight: 0, overflowY: 'auto' }}>
        {campaign.isError || !valid ? (
          <Alert severity="error" data-testid="campaign-report-error">
            {t('backendErrors.ERR_NO_CAMPAIGN_FOUND')}
          </Alert>
        ) : campaign.data ? (
          <>
            <Progress campaign={campaign.data} />
            <CountCards campaign={campaign.data} />
          </>
        ) : (
          <Skeleton variant="rounded" height={160} data-testid="campaign-report-loading" />
        )}
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, flexGrow: 1 }}>
            {t('campaignReport.recipients')}
          </Typography>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('campaignReport.searchPlaceholder')}
            testId="campaign-report-search"
          />
          <TextField
            select
            size="small"
            label={t('campaignReport.filter')}
            value={filter}
            onChange={(event) => setFilter(event.target.value as ShippingFilter)}
            sx={{ minWidth: 180 }}
            data-testid="campaign-report-filter"
          >
            {shippingFilters.map((value) => (
              <MenuItem key={value} value={value}>
                {t(`campaignReport.filters.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {/* A bounded height: the table scrolls by itself, which loads its next pages. */}
        <Box sx={{ display: 'flex', flexDirection: 'column', height: '70vh', minHeight: 320, flexShrink: 0 }}>
          <ListTable
            testId="campaign-report-recipients"
            columns={COLUMNS.map((column) => ({ id: column, label: t(`campaignReport.columns.${column}`) }))}
            rowCount={rows.length}
            loading={recipients.isPending}
            loadingMore={recipients.isFetchingNextPage}
            emptyText={t('campaignReport.empty')}
            loadMore={{
              hasMore: recipients.hasNextPage,
              busy: recipients.isFetching,
              next: () => void recipients.fetchNextPage(),
            }}
          >
            {rows.map((shipping) => (
              <RecipientRow key={shipping.id} shipping={shipping} />
            ))}
          </ListTable>
        </Box>
      </Box>
    </PageContainer>
  );
}
