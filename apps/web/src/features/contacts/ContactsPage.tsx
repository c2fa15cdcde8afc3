import { type Contact, can } from '@balcao/shared';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import FileDownload from '@mui/icons-material/FileDownload';
import PersonAdd from '@mui/icons-material/PersonAdd';
import Search from '@mui/icons-material/Search';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
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
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { publicFileUrl } from '../../api/config';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { onScrollLoadMore } from '../../components/infiniteScroll';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { ContactModal } from './ContactModal';
import { contactsApi } from './contactsApi';
import { contactsCsv, downloadText } from './csv';
import { useContactsRealtime } from './useContactsRealtime';

type ModalState = { open: false } | { open: true; contactId: number | null };

const COLUMNS = ['avatar', 'name', 'number', 'email', 'actions'] as const;

function SkeletonRows() {
  return ['first', 'second', 'third'].map((row) => (
    <TableRow key={row}>
      {COLUMNS.map((column) => (
        <TableCell key={column}>
          <Skeleton />
        </TableCell>
      ))}
    </TableRow>
  ));
}

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
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const canDelete = can(me.profile, 'contacts-page:deleteContact');

  const contacts = useInfiniteQuery({
    queryKey: queryKeys.contacts.list(searchParam),
    queryFn: ({ pageParam }) => contactsApi.list(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (contact: Contact) => contactsApi.remove(contact.id),
    onSuccess: () => {
      toast.success(t('contacts.deleted'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.contacts.lists });
    },
    onError: toastError,
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
          <TextField
            size="small"
            placeholder={t('contacts.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            slotProps={{
              htmlInput: { 'data-testid': 'contacts-search', 'aria-label': t('common.search') },
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
            variant="outlined"
            startIcon={<FileDownload />}
            disabled={rows.length === 0}
            onClick={() => downloadText(contactsCsv(rows), 'contatos.csv')}
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
      <Paper
        variant="outlined"
        data-testid="contacts-list"
        sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}
        onScroll={onScrollLoadMore(contacts.hasNextPage, contacts.isFetching, () => void contacts.fetchNextPage())}
      >
        <Table stickyHeader size="small" sx={{ '& td, & th': { py: 1 } }}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell
                  key={column}
                  align={column === 'actions' ? 'right' : 'left'}
                  sx={column === 'avatar' ? { width: 56 } : undefined}
                >
                  {column === 'avatar' ? '' : t(`contacts.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((contact) => (
              <TableRow hover key={contact.id} data-testid={`contact-row-${contact.id}`}>
                <TableCell>
                  <Avatar
                    src={contact.profilePicUrl ? publicFileUrl(contact.profilePicUrl) : undefined}
                    sx={{ width: 36, height: 36 }}
                  >
                    {contact.name.charAt(0).toUpperCase()}
                  </Avatar>
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
                    <Tooltip title={t('common.edit')}>
                      <IconButton
                        size="small"
                        onClick={() => setModal({ open: true, contactId: contact.id })}
                        data-testid={`contact-edit-${contact.id}`}
                      >
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {canDelete && (
                      <Tooltip title={t('common.delete')}>
                        <IconButton
                          size="small"
                          color="error"
                          onClick={() => setDeleting(contact)}
                          data-testid={`contact-delete-${contact.id}`}
                        >
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
            {(contacts.isPending || contacts.isFetchingNextPage) && <SkeletonRows />}
            {!contacts.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <ContactModal
        open={modal.open}
        contactId={modal.open ? modal.contactId : null}
        onClose={() => setModal({ open: false })}
      />
      <ConfirmationModal
        open={deleting !== null}
        title={t('contacts.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t('contacts.deleteMessage')}
      </ConfirmationModal>
    </PageContainer>
  );
}
