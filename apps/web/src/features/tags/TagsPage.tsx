import type { Tag } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { ColorChip } from '../../components/ColorChip';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
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

  const tags = useInfiniteList(queryKeys.tags.list(searchParam), (page) => tagsApi.list(searchParam, page));

  const deletion = useDeleteConfirmation({
    remove: (tag: Tag) => tagsApi.remove(tag.id),
    deletedMessage: t('tags.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.tags.all }),
    title: (tag) => t('tags.deleteTitle', { name: tag.name }),
    message: t('tags.deleteMessage'),
  });

  const rows = tags.data?.pages.flatMap((page) => page.tags) ?? [];
  const editing = modal.open && modal.tagId !== null ? (rows.find((tag) => tag.id === modal.tagId) ?? null) : null;

  return (
    <PageContainer
      title={t('pages.tags')}
      actions={
        <>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('tags.searchPlaceholder')}
            testId="tags-search"
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
      <ListTable
        testId="tags-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`tags.columns.${column}`),
          align: column === 'name' ? 'left' : column === 'actions' ? 'right' : 'center',
        }))}
        rowCount={rows.length}
        loading={tags.isPending}
        loadingMore={tags.isFetchingNextPage}
        loadMore={{ hasMore: tags.hasNextPage, busy: tags.isFetching, next: () => void tags.fetchNextPage() }}
      >
        {rows.map((tag) => (
          <TableRow hover key={tag.id} data-testid={`tag-row-${tag.id}`}>
            <TableCell>
              <ColorChip size="small" label={tag.name} color={tag.color} data-testid={`tag-chip-${tag.id}`} />
              {tag.kanban === 1 && <Chip size="small" variant="outlined" label={t('tags.kanban')} sx={{ ml: 1 }} />}
            </TableCell>
            <TableCell align="center" data-testid={`tag-count-${tag.id}`}>
              {tag.ticketsCount ?? 0}
            </TableCell>
            <TableCell align="right">
              <RowActions
                onEdit={() => setModal({ open: true, tagId: tag.id })}
                editTestId={`tag-edit-${tag.id}`}
                onDelete={() => deletion.ask(tag)}
                deleteTestId={`tag-delete-${tag.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <TagModal
        open={modal.open && (modal.tagId === null || editing !== null)}
        tag={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
