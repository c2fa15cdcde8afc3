import type { Tag } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Search from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { onScrollLoadMore } from '../../components/infiniteScroll';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { TagModal } from './TagModal';
import { tagsApi } from './tagsApi';
import { useTagsRealtime } from './useTagsRealtime';

type ModalState = { open: false } | { open: true; tagId: number | null };

const COLUMNS = ['name', 'tickets', 'actions'] as const;

/** Usage of the loaded tags: a bar per tag, relative to the most used (recharts is not installed). */
function UsageChart({ tags }: { tags: Tag[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...tags.map((tag) => tag.ticketsCount ?? 0));
  if (tags.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, maxHeight: 220, overflowY: 'auto' }} data-testid="tags-usage">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('tags.usage')}
      </Typography>
      <Stack spacing={0.75}>
        {tags.map((tag) => (
          <Stack key={tag.id} direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Typography variant="caption" noWrap sx={{ width: 140 }} title={tag.name}>
              {tag.name}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={((tag.ticketsCount ?? 0) / max) * 100}
              data-testid={`tag-usage-${tag.id}`}
              sx={{
                flex: 1,
                height: 10,
                borderRadius: 5,
                bgcolor: 'action.hover',
                '& .MuiLinearProgress-bar': { bgcolor: tag.color, borderRadius: 5 },
              }}
            />
            <Typography variant="caption" sx={{ width: 32, textAlign: 'right' }}>
              {tag.ticketsCount ?? 0}
            </Typography>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/** /tags (spec part 2 §2, "Tags"). */
export default function TagsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useTagsRealtime();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });
  const [deleting, setDeleting] = useState<Tag | null>(null);

  const tags = useInfiniteQuery({
    queryKey: queryKeys.tags.list(searchParam),
    queryFn: ({ pageParam }) => tagsApi.list(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (tag: Tag) => tagsApi.remove(tag.id),
    onSuccess: () => {
      toast.success(t('tags.deleted'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.tags.all });
    },
    onError: toastError,
  });

  const rows = tags.data?.pages.flatMap((page) => page.tags) ?? [];
  const editing = modal.open && modal.tagId !== null ? (rows.find((tag) => tag.id === modal.tagId) ?? null) : null;

  return (
    <PageContainer
      title={t('pages.tags')}
      actions={
        <>
          <TextField
            size="small"
            placeholder={t('tags.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            slotProps={{
              htmlInput: { 'data-testid': 'tags-search', 'aria-label': t('common.search') },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Search fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, tagId: null })}
            data-testid="tags-add"
          >
            {t('tags.add')}
          </Button>
        </>
      }
    >
      <UsageChart tags={rows} />
      <Paper
        variant="outlined"
        data-testid="tags-list"
        sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}
        onScroll={onScrollLoadMore(tags.hasNextPage, tags.isFetching, () => void tags.fetchNextPage())}
      >
        <Table stickyHeader size="small" sx={{ '& td, & th': { py: 1.25 } }}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell key={column} align={column === 'name' ? 'left' : column === 'actions' ? 'right' : 'center'}>
                  {t(`tags.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((tag) => (
              <TableRow hover key={tag.id} data-testid={`tag-row-${tag.id}`}>
                <TableCell>
                  <Chip
                    size="small"
                    label={tag.name}
                    sx={{ bgcolor: tag.color, color: '#fff', fontWeight: 600 }}
                    data-testid={`tag-chip-${tag.id}`}
                  />
                  {tag.kanban === 1 && <Chip size="small" variant="outlined" label={t('tags.kanban')} sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell align="center" data-testid={`tag-count-${tag.id}`}>
                  {tag.ticketsCount ?? 0}
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={t('common.edit')}>
                    <IconButton
                      size="small"
                      onClick={() => setModal({ open: true, tagId: tag.id })}
                      data-testid={`tag-edit-${tag.id}`}
                    >
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('common.delete')}>
                    <IconButton
                      size="small"
                      color="error"
                      onClick={() => setDeleting(tag)}
                      data-testid={`tag-delete-${tag.id}`}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(tags.isPending || tags.isFetchingNextPage) &&
              ['first', 'second'].map((row) => (
                <TableRow key={row}>
                  {COLUMNS.map((column) => (
                    <TableCell key={column}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            {!tags.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <TagModal
        open={modal.open && (modal.tagId === null || editing !== null)}
        tag={editing}
        onClose={() => setModal({ open: false })}
      />
      <ConfirmationModal
        open={deleting !== null}
        title={t('tags.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t('tags.deleteMessage')}
      </ConfirmationModal>
    </PageContainer>
  );
}
