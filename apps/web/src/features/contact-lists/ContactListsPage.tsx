import type { ContactList } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { ContactListModal } from './ContactListModal';
import { contactListsApi } from './contactListsApi';
import { useContactListsRealtime } from './useContactListsRealtime';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['name', 'contactsCount', 'whatsapp', 'actions'] as const;

/** The WhatsApp check counts of a list, as small chips. */
function CheckCounts({ record }: { record: ContactList }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={0.5} data-testid={`contact-list-checks-${record.id}`}>
      <Chip
        size="small"
        color="success"
        variant="outlined"
        label={t('contactLists.valid', { count: record.validCount })}
      />
      <Chip
        size="small"
        color="error"
        variant="outlined"
        label={t('contactLists.invalid', { count: record.invalidCount })}
      />
      <Chip size="small" variant="outlined" label={t('contactLists.unchecked', { count: record.uncheckedCount })} />
    </Stack>
  );
}

/** /contact-lists (spec part 2 §2 "Contact lists"). */
export default function ContactListsPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useContactListsRealtime();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });
  // The server lets only admins delete a list.
  const canDelete = me.profile === 'admin' || me.super;

  const list = useInfiniteList(queryKeys.contactLists.list(searchParam), (page) =>
    contactListsApi.list(searchParam, page),
  );

  const deletion = useDeleteConfirmation({
    remove: (record: ContactList) => contactListsApi.remove(record.id),
    deletedMessage: t('contactLists.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.contactLists.all }),
    title: (record) => t('contactLists.deleteTitle', { name: record.name }),
    message: t('contactLists.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.records) ?? [];
  const count = list.data?.pages[0]?.count;
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;
  const open = (record: ContactList) => navigate(`/contact-lists/${record.id}/contacts`);

  return (
    <PageContainer
      title={
        <>
          {t('pages.contactLists')}
          {count !== undefined && (
            <Chip
              size="small"
              label={t('contactLists.count', { count })}
              sx={{ ml: 1.5, verticalAlign: 'middle' }}
              data-testid="contact-lists-count"
            />
          )}
        </>
      }
      actions={
        <>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('contactLists.searchPlaceholder')}
            testId="contact-lists-search"
          />
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, id: null })}
            data-testid="contact-lists-add"
          >
            {t('contactLists.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="contact-lists-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`contactLists.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'contactsCount' ? 'center' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
        {rows.map((record) => (
          <TableRow
            hover
            key={record.id}
            data-testid={`contact-list-row-${record.id}`}
            onClick={() => open(record)}
            sx={{ cursor: 'pointer' }}
          >
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {record.name}
              </Typography>
            </TableCell>
            <TableCell align="center" data-testid={`contact-list-contacts-${record.id}`}>
              {record.contactsCount}
            </TableCell>
            <TableCell>
              <CheckCounts record={record} />
            </TableCell>
            <TableCell align="right" onClick={(event) => event.stopPropagation()} sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title={t('contactLists.openItems')}>
                <IconButton size="small" onClick={() => open(record)} data-testid={`contact-list-open-${record.id}`}>
                  <PeopleOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
              <RowActions
                onEdit={() => setModal({ open: true, id: record.id })}
                editTestId={`contact-list-edit-${record.id}`}
                onDelete={canDelete ? () => deletion.ask(record) : undefined}
                deleteTestId={`contact-list-delete-${record.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <ContactListModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
