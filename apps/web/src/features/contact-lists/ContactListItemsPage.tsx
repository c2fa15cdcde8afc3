import type { ContactListItem } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CheckCircle from '@mui/icons-material/CheckCircle';
import HighlightOff from '@mui/icons-material/HighlightOff';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { queryKeys } from '../../api/queryKeys';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { ContactImportButton } from '../contacts/ContactImport';
import { ContactListItemModal } from './ContactListItemModal';
import { contactListItemsApi, contactListsApi } from './contactListsApi';
import { useContactListItemsRealtime, useContactListsRealtime } from './useContactListsRealtime';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['name', 'number', 'email', 'whatsapp', 'actions'] as const;

/** ✓ valid, ✗ invalid, — not checked yet. */
function WhatsappCheck({ item }: { item: ContactListItem }) {
  const { t } = useTranslation();
  if (item.isWhatsappValid === true)
    return <CheckCircle color="success" fontSize="small" titleAccess={t('contactListItems.valid')} />;
  if (item.isWhatsappValid === false)
    return <HighlightOff color="error" fontSize="small" titleAccess={t('contactListItems.invalid')} />;
  return (
    <Typography variant="body2" color="text.secondary" title={t('contactListItems.unchecked')}>
      —
    </Typography>
  );
}

/** /contact-lists/{contactListId}/contacts (spec part 2 §2 "Contact lists", the per-list page). */
export default function ContactListItemsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const contactListId = Number(useParams().contactListId);
  const backToLists = () => navigate('/contact-lists');
  const reloadItems = () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.contactListItems.of(contactListId) });

  // Spec part 2 §4: the list's events reload its items too; a deleted list leaves the page.
  useContactListsRealtime((event) => {
    const id = event.action === 'delete' ? event.id : event.record.id;
    if (id !== contactListId) return;
    if (event.action === 'delete') backToLists();
    else reloadItems();
  });
  useContactListItemsRealtime();

  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });

  const contactList = useQuery({
    queryKey: queryKeys.contactLists.detail(contactListId),
    queryFn: () => contactListsApi.show(contactListId),
    enabled: Number.isInteger(contactListId),
  });
  const list = useInfiniteList(queryKeys.contactListItems.list(contactListId, searchParam), (page) =>
    contactListItemsApi.list(contactListId, searchParam, page),
  );

  const deletion = useDeleteConfirmation({
    remove: (record: ContactListItem) => contactListItemsApi.remove(record.id),
    deletedMessage: t('contactListItems.deleted'),
    onDeleted: reloadItems,
    title: (record) => t('contactListItems.deleteTitle', { name: record.name }),
    message: t('contactListItems.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.contacts) ?? [];
  const count = list.data?.pages[0]?.count;
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;

  return (
    <PageContainer
      title={
        <>
          <span data-testid="contact-list-title">{contactList.data?.name ?? t('pages.contactListItems')}</span>
          {count !== undefined && (
            <Chip
              size="small"
              label={t('contactListItems.count', { count })}
              sx={{ ml: 1.5, verticalAlign: 'middle' }}
              data-testid="contact-list-items-count"
            />
          )}
        </>
      }
      actions={
        <>
          <Button startIcon={<ArrowBack />} onClick={backToLists} data-testid="contact-list-items-back">
            {t('contactListItems.back')}
          </Button>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('contactListItems.searchPlaceholder')}
            testId="contact-list-items-search"
          />
          <ContactImportButton uploadPath={contactListsApi.uploadPath(contactListId)} onDone={reloadItems} />
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, id: null })}
            data-testid="contact-list-items-add"
          >
            {t('contactListItems.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="contact-list-items-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`contactListItems.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'whatsapp' ? 'center' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
        {rows.map((item) => (
          <TableRow hover key={item.id} data-testid={`contact-list-item-row-${item.id}`}>
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {item.name}
              </Typography>
            </TableCell>
            <TableCell>{item.number}</TableCell>
            <TableCell>{item.email}</TableCell>
            <TableCell align="center" data-testid={`contact-list-item-whatsapp-${item.id}`}>
              <WhatsappCheck item={item} />
            </TableCell>
            <TableCell align="right">
              <RowActions
                onEdit={() => setModal({ open: true, id: item.id })}
                editTestId={`contact-list-item-edit-${item.id}`}
                onDelete={() => deletion.ask(item)}
                deleteTestId={`contact-list-item-delete-${item.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <ContactListItemModal
        open={modal.open && (modal.id === null || editing !== null)}
        contactListId={contactListId}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
