import type { User } from '@balcao/shared';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PersonAdd from '@mui/icons-material/PersonAdd';
import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
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
import { toast } from 'react-toastify';
import { publicFileUrl } from '../../api/config';
import { queryKeys } from '../../api/queryKeys';
import { Can } from '../../components/Can';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { onScrollLoadMore } from '../../components/infiniteScroll';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { UserModal } from './UserModal';
import { usersApi } from './usersApi';

type ModalState = { open: false } | { open: true; userId: number | null };

const COLUMNS = ['name', 'email', 'profile', 'actions'] as const;

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

function UserRow({ user, onEdit, onDelete }: { user: User; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <TableRow hover data-testid={`user-row-${user.id}`}>
      <TableCell>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <Tooltip title={t(user.online ? 'users.online' : 'users.offline')}>
            <Badge
              overlap="circular"
              variant="dot"
              color={user.online ? 'success' : 'default'}
              anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
              sx={{
                '& .MuiBadge-dot': {
                  border: 2,
                  borderColor: 'background.paper',
                  width: 12,
                  height: 12,
                  borderRadius: '50%',
                },
              }}
            >
              <Avatar src={user.avatar ? publicFileUrl(user.avatar) : undefined} sx={{ width: 36, height: 36 }}>
                {user.name.charAt(0).toUpperCase()}
              </Avatar>
            </Badge>
          </Tooltip>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {user.name}
          </Typography>
        </Stack>
      </TableCell>
      <TableCell>{user.email}</TableCell>
      <TableCell>
        <Chip
          size="small"
          variant={user.profile === 'admin' ? 'filled' : 'outlined'}
          color={user.profile === 'admin' ? 'primary' : 'default'}
          label={t(`menu.profiles.${user.profile}`)}
        />
      </TableCell>
      <TableCell align="right">
        <Tooltip title={t('common.edit')}>
          <IconButton size="small" onClick={onEdit} data-testid={`user-edit-${user.id}`}>
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('common.delete')}>
          <IconButton size="small" color="error" onClick={onDelete} data-testid={`user-delete-${user.id}`}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

function UsersManager() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });
  const [deleting, setDeleting] = useState<User | null>(null);

  const users = useInfiniteQuery({
    queryKey: queryKeys.users.list(searchParam),
    queryFn: ({ pageParam }) => usersApi.list(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (user: User) => usersApi.remove(user.id),
    onSuccess: () => {
      toast.success(t('users.deleted'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.users.lists });
    },
    onError: toastError,
  });

  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];
  const count = users.data?.pages[0]?.count;

  return (
    <PageContainer
      title={
        <>
          {t('pages.users')}
          {count !== undefined && (
            <Chip size="small" label={t('users.count', { count })} sx={{ ml: 1.5, verticalAlign: 'middle' }} />
          )}
        </>
      }
      actions={
        <>
          <TextField
            size="small"
            placeholder={t('users.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            slotProps={{
              htmlInput: { 'data-testid': 'users-search', 'aria-label': t('common.search') },
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
            startIcon={<PersonAdd />}
            onClick={() => setModal({ open: true, userId: null })}
            data-testid="users-add"
          >
            {t('users.add')}
          </Button>
        </>
      }
    >
      <Paper
        variant="outlined"
        data-testid="users-list"
        sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}
        onScroll={onScrollLoadMore(users.hasNextPage, users.isFetching, () => void users.fetchNextPage())}
      >
        <Table stickyHeader size="small" sx={{ '& td, & th': { py: 1.25 } }}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell key={column} align={column === 'actions' ? 'right' : 'left'}>
                  {t(`users.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                onEdit={() => setModal({ open: true, userId: user.id })}
                onDelete={() => setDeleting(user)}
              />
            ))}
            {(users.isPending || users.isFetchingNextPage) && <SkeletonRows />}
            {!users.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <UserModal
        open={modal.open}
        userId={modal.open ? modal.userId : null}
        onClose={() => setModal({ open: false })}
      />
      <ConfirmationModal
        open={deleting !== null}
        title={t('users.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t('users.deleteMessage')}
      </ConfirmationModal>
    </PageContainer>
  );
}

/** /users: the company's users, for admins (spec §2). */
export default function UsersPage() {
  const { t } = useTranslation();
  return (
    <Can
      perform="users:manage"
      no={
        <PageContainer title={t('pages.users')}>
          <Alert severity="warning">{t('errors.noPermission')}</Alert>
        </PageContainer>
      }
    >
      <UsersManager />
    </Can>
  );
}
