import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import Popover from '@mui/material/Popover';
import type { Breakpoint } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useRef } from 'react';
import { onScrollLoadMore } from '../components/infiniteScroll';

interface TopBarPopoverProps {
  /** The button's tooltip and accessible name. */
  label: string;
  icon: ReactNode;
  badgeContent: ReactNode;
  /** `data-testid`s: `${testId}-button`, `${testId}-popover` (its paper) and `${testId}-title`. */
  testId: string;
  badgeTestId: string;
  /** More `data-*` attributes of the button, read by the tests. */
  buttonData?: Record<`data-${string}`, string | number>;
  /** The heading above the content. */
  title: ReactNode;
  width: number;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** A top-bar icon button with a count badge that opens a popover below it. */
export function TopBarPopover({
  label,
  icon,
  badgeContent,
  testId,
  badgeTestId,
  buttonData,
  title,
  width,
  open,
  onOpen,
  onClose,
  children,
}: TopBarPopoverProps) {
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          ref={button}
          color="inherit"
          onClick={onOpen}
          aria-label={label}
          data-testid={`${testId}-button`}
          {...buttonData}
        >
          <Badge
            color="error"
            badgeContent={badgeContent}
            max={99}
            slotProps={{ badge: { 'data-testid': badgeTestId } as object }}
          >
            {icon}
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={open}
        // A function: the button is only read once the popover opens (not during render).
        anchorEl={() => button.current!}
        onClose={onClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { 'data-testid': `${testId}-popover`, sx: { width, maxWidth: 'calc(100vw - 32px)' } } as object,
        }}
      >
        <Typography
          variant="subtitle2"
          sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
          data-testid={`${testId}-title`}
        >
          {title}
        </Typography>
        {children}
      </Popover>
    </>
  );
}

/** What `TopBarPopoverList` reads of an infinite query. */
interface PagedList {
  hasNextPage: boolean;
  isFetching: boolean;
  isPending: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

interface TopBarPopoverListProps {
  list: PagedList;
  /** No record loaded: once loaded, `emptyText` shows instead. */
  empty: boolean;
  emptyText: string;
  testId: string;
  emptyTestId: string;
  /** Per breakpoint, as in `sx`. */
  maxHeight: number | string | Partial<Record<Breakpoint, number | string>>;
  /** The list's items. */
  children: ReactNode;
}

/** The scrolling list of a top-bar popover: the next page near the bottom, a spinner while loading, or the empty text. */
export function TopBarPopoverList({
  list,
  empty,
  emptyText,
  testId,
  emptyTestId,
  maxHeight,
  children,
}: TopBarPopoverListProps) {
  return (
    <Box
      data-testid={testId}
      onScroll={onScrollLoadMore(list.hasNextPage, list.isFetching, () => void list.fetchNextPage())}
      sx={{ maxHeight, overflowY: 'auto' }}
    >
      <List disablePadding>{children}</List>
      {(list.isPending || list.isFetchingNextPage) && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
          <CircularProgress size={22} />
        </Box>
      )}
      {!list.isPending && empty && (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ textAlign: 'center', px: 2, py: 4 }}
          data-testid={emptyTestId}
        >
          {emptyText}
        </Typography>
      )}
    </Box>
  );
}
