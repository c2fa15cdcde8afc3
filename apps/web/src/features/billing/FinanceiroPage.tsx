import { formatDueDate, type Invoice, invoiceDisplayStatus, type PaymentEvent } from '@balcao/shared';
import Pix from '@mui/icons-material/Pix';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { SearchField } from '../../components/SearchField';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { useCompanyTimeZone } from '../campaigns/format';
import { formatBrl } from '../settings/admin/planForm';
import { billingApi } from './billingApi';
import { CheckoutDialog } from './CheckoutDialog';
import { type InvoiceDisplayStatus, todayIn } from './format';
import { usePaymentRealtime } from './usePaymentRealtime';

const COLUMNS = ['id', 'detail', 'value', 'dueDate', 'status', 'actions'] as const;

const STATUS: Record<InvoiceDisplayStatus, { key: string; color: 'success' | 'error' | 'warning' }> = {
  Pago: { key: 'paid', color: 'success' },
  Vencido: { key: 'overdue', color: 'error' },
  'Em Aberto': { key: 'open', color: 'warning' },
};

/** /financeiro (spec part 2 §2 "Checkout and invoices"): the invoices (Faturas) and their checkout. */
export default function FinanceiroPage() {
  const { t, i18n } = useTranslation();
  const sessionUser = useSessionUser();
  // Paying is an admin's act (POST /subscription is admin-only); members read the invoices.
  const mayPay = sessionUser.profile === 'admin' || sessionUser.super;
  const timeZone = useCompanyTimeZone();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [paid, setPaid] = useState<PaymentEvent | null>(null);
  usePaymentRealtime(setPaid);

  const list = useInfiniteList(queryKeys.billing.invoiceList(searchParam), (page) =>
    billingApi.invoices(searchParam, page),
  );
  const rows = list.data?.pages.flatMap((page) => page.invoices) ?? [];
  const today = todayIn(timeZone);

  return (
    <PageContainer
      title={t('pages.financeiro')}
      actions={
        <SearchField
          value={search}
          onChange={setSearch}
          placeholder={t('billing.searchPlaceholder')}
          testId="financeiro-search"
        />
      }
    >
      <ListTable
        testId="financeiro-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`billing.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'value' || column === 'status' ? 'center' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
        emptyText={t('billing.empty')}
      >
        {rows.map((invoice) => {
          const status = invoiceDisplayStatus(invoice, today);
          const overdue = status === 'Vencido';
          return (
            <TableRow
              hover
              key={invoice.id}
              data-testid={`financeiro-row-${invoice.id}`}
              data-status={STATUS[status].key}
              sx={
                overdue
                  ? (theme) => ({
                      bgcolor: alpha(theme.palette.error.main, 0.12),
                      '&.MuiTableRow-hover:hover': { bgcolor: alpha(theme.palette.error.main, 0.2) },
                    })
                  : undefined
              }
            >
              <TableCell>{invoice.id}</TableCell>
              <TableCell sx={{ maxWidth: 360 }}>
                <Typography variant="body2" noWrap title={invoice.detail}>
                  {invoice.detail}
                </Typography>
              </TableCell>
              <TableCell align="center" data-testid={`financeiro-value-${invoice.id}`} sx={{ whiteSpace: 'nowrap' }}>
                {formatBrl(invoice.value, i18n.language)}
              </TableCell>
              <TableCell data-testid={`financeiro-due-${invoice.id}`}>{formatDueDate(invoice.dueDate)}</TableCell>
              <TableCell align="center">
                <Chip
                  size="small"
                  variant={overdue ? 'filled' : 'outlined'}
                  color={STATUS[status].color}
                  label={t(`billing.status.${STATUS[status].key}`)}
                  data-testid={`financeiro-status-${invoice.id}`}
                />
              </TableCell>
              <TableCell align="right">
                {mayPay && invoice.status !== 'paid' && (
                  <Button
                    size="small"
                    variant="contained"
                    startIcon={<Pix />}
                    onClick={() => setPaying(invoice)}
                    aria-label={t('billing.payInvoice', { id: invoice.id })}
                    data-testid={`financeiro-pay-${invoice.id}`}
                  >
                    {t('billing.pay')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </ListTable>
      <CheckoutDialog
        invoice={paying}
        paidDueDate={paid && paying && paid.invoiceId === paying.id ? paid.company.dueDate : null}
        onClose={() => setPaying(null)}
      />
    </PageContainer>
  );
}
