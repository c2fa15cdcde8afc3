import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onScrollLoadMore } from './infiniteScroll';

export interface ListColumn {
  id: string;
  label: ReactNode;
  align?: 'left' | 'center' | 'right';
  width?: number;
}

interface ListTableProps {
  /** The `data-testid` of the scrolling frame. */
  testId: string;
  columns: ListColumn[];
  /** How many rows the page holds (the empty row shows at 0). */
  rowCount: number;
  /** The first load: skeleton rows, no empty row. */
  loading: boolean;
  /** A next page is on its way: skeleton rows under the loaded ones. */
  loadingMore?: boolean;
  /** Infinite lists: called near the bottom while there is a next page and nothing is loading. */
  loadMore?: { hasMore: boolean; busy: boolean; next: () => void };
  skeletonRows?: number;
  emptyText?: ReactNode;
  /** Vertical padding of the cells (theme spacing). */
  cellPaddingY?: number;
  /** The `<TableRow>`s of the loaded records. */
  children: ReactNode;
}

const SKELETON_KEYS = ['first', 'second', 'third', 'fourth', 'fifth'];

/**
 * On phones a list scrolls sideways; its row actions (a last column named `actions`) stay pinned at
 * the right edge so they are always reachable.
 */
const pinnedActions = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& td:last-of-type, & th:last-of-type': {
      position: 'sticky',
      right: 0,
      zIndex: 1,
      bgcolor: 'background.paper',
      boxShadow: `-6px 0 6px -6px ${theme.palette.text.secondary}`,
    },
    '& th:last-of-type': { zIndex: 3 },
  },
});

/**
 * The table of a list page: a sticky header, skeleton rows while loading, a "no records" row when
 * empty, and (for paginated lists) the next page loaded near the bottom.
 */
export function ListTable({
  testId,
  columns,
  rowCount,
  loading,
  loadingMore = false,
  loadMore,
  skeletonRows = 2,
  emptyText,
  cellPaddingY = 1.25,
  children,
}: ListTableProps) {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      data-testid={testId}
      sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}
      onScroll={loadMore && onScrollLoadMore(loadMore.hasMore, loadMore.busy, loadMore.next)}
    >
      <Table
        stickyHeader
        size="small"
        sx={[{ '& td, & th': { py: cellPaddingY } }, columns.at(-1)?.id === 'actions' && pinnedActions]}
      >
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.id}
                align={column.align ?? 'left'}
                sx={column.width ? { width: column.width } : undefined}
              >
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {children}
          {(loading || loadingMore) &&
            SKELETON_KEYS.slice(0, skeletonRows).map((row) => (
              <TableRow key={row}>
                {columns.map((column) => (
                  <TableCell key={column.id}>
                    <Skeleton />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          {!loading && rowCount === 0 && (
            <TableRow>
              <TableCell colSpan={columns.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                {emptyText ?? t('common.noRecords')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </Paper>
  );
}
