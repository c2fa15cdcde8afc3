import { type Contact, can } from '@balcao/shared';
import FileDownload from '@mui/icons-material/FileDownload';
import PersonAdd from '@mui/icons-material/PersonAdd';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { http } from '../../api/client';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { PersonAvatar } from '../../components/PersonAvatar';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { toastError } from '../../components/toastError';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { ContactImportButton } from './ContactImport';
import { ContactModal } from './ContactModal';
import { contactsApi } from './contactsApi';
import { saveBlob } from './csv';
import { useContactsRealtime } from './useContactsRealtime';

type ModalState = { open: false } | { open: true; contactId: number | null };

const COLUMNS = ['avatar', 'name', 'number', 'email', 'actions'] as const;

/** /contacts (spec part 2 §2, "Contacts"). */
export default function ContactsPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useContactsRealtime();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const [modal, setModal] = useState<ModalState>({ open: false });
  const canDelete = can(me.profile, 'contacts-page:deleteContact');

  const contacts = useInfiniteList(queryKeys.contacts.list(searchParam), (page) => contactsApi.list(searchParam, page));

  const deletion = useDeleteConfirmation({
    remove: (contact: Contact) => contactsApi.remove(contact.id),
    deletedMessage: t('contacts.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.contacts.lists }),
    title: (contact) => t('contacts.deleteTitle', { name: contact.name }),
    message: t('contacts.deleteMessage'),
  });

  const startTicket = useMutation({
    mutationFn: (contact: Contact) =>
      contactsApi.startTicket({ contactId: contact.id, queueId: me.queues[0]?.id ?? null, status: 'open' }),
    onSuccess: (ticket) => navigate(`/tickets/${ticket.uuid}`),
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'ERR_OTHER_OPEN_TICKET') {
        const { userId, ticketUuid, userName, queueName } = err.body;
        if (userId === me.id && typeof ticketUuid === 'string') {
          navigate(`/tickets/${ticketUuid}`);
          return;
        }
        const queue = typeof queueName === 'string' && queueName ? queueName : t('contacts.noQueue');
        toast.warning(
          typeof userName === 'string' && userName
            ? t('contacts.otherOpenTicket', { userName, queueName: queue })
            : t('contacts.otherPendingTicket', { queueName: queue }),
          { toastId: `other-open-ticket-${String(ticketUuid)}` },
        );
        return;
      }
      toastError(err);
    },
  });

  const rows = contacts.data?.pages.flatMap((page) => page.contacts) ?? [];
  const count = contacts.data?.pages[0]?.count;

  return (
    <PageContainer
      title={
        <>
          {t('pages.contacts')}
          {count !== undefined && (
            <Chip size="small" label={t('contacts.count', { count })} sx={{ ml: 1.5, verticalAlign: 'middle' }} />
          )}
        </>
      }
      actions={
        <>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('contacts.searchPlaceholder')}
            testId="contacts-search"
          />
          <ContactImportButton
            uploadPath="/contacts/import"
            onDone={() => void queryClient.invalidateQueries({ queryKey: queryKeys.contacts.lists })}
          />
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            disabled={rows.length === 0}
            // The server streams every contact (not only the loaded pages), escaped and with a BOM.
            onClick={() =>
              void http.getBlob('/contacts/export').then((blob) => saveBlob(blob, 'contatos.csv'), toastError)
            }
            data-testid="contacts-export"
          >
            {t('contacts.export')}
          </Button>
          <Button
            variant="contained"
            startIcon={<PersonAdd />}
            onClick={() => setModal({ open: true, contactId: null })}
            data-testid="contacts-add"
          >
            {t('contacts.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="contacts-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: column === 'avatar' ? '' : t(`contacts.columns.${column}`),
          align: column === 'actions' ? 'right' : 'left',
          width: column === 'avatar' ? 56 : undefined,
        }))}
        rowCount={rows.length}
        loading={contacts.isPending}
        loadingMore={contacts.isFetchingNextPage}
        loadMore={{
          hasMore: contacts.hasNextPage,
          busy: contacts.isFetching,
          next: () => void contacts.fetchNextPage(),
        }}
        skeletonRows={3}
        cellPaddingY={1}
      >
        {rows.map((contact) => (
          <TableRow hover key={contact.id} data-testid={`contact-row-${contact.id}`}>
            <TableCell>
              <PersonAvatar name={contact.name} src={contact.profilePicUrl} size={36} />
            </TableCell>
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {contact.name}
              </Typography>
            </TableCell>
            <TableCell>{contact.number}</TableCell>
            <TableCell>{contact.email}</TableCell>
            <TableCell align="right">
              <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                <Tooltip title={t('contacts.startTicket')}>
                  <span>
                    <IconButton
                      size="small"
                      color="success"
                      disabled={startTicket.isPending}
                      onClick={() => startTicket.mutate(contact)}
                      data-testid={`contact-ticket-${contact.id}`}
                    >
                      <WhatsApp fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <RowActions
                  onEdit={() => setModal({ open: true, contactId: contact.id })}
                  editTestId={`contact-edit-${contact.id}`}
                  onDelete={canDelete ? () => deletion.ask(contact) : undefined}
                  deleteTestId={`contact-delete-${contact.id}`}
                />
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <ContactModal
        open={modal.open}
        contactId={modal.open ? modal.contactId : null}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
