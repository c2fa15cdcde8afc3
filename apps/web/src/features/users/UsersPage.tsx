import type { User } from '@balcao/shared';
import PersonAdd from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { Can } from '../../components/Can';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { PersonAvatar } from '../../components/PersonAvatar';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { UserModal } from './UserModal';
import { usersApi } from './usersApi';

type ModalState = { open: false } | { open: true; userId: number | null };

const COLUMNS = ['name', 'email', 'profile', 'actions'] as const;

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
              <PersonAvatar name={user.name} src={user.avatar} size={36} />
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
        <RowActions
          onEdit={onEdit}
          editTestId={`user-edit-${user.id}`}
          onDelete={onDelete}
          deleteTestId={`user-delete-${user.id}`}
        />
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

  const users = useInfiniteList(queryKeys.users.list(searchParam), (page) => usersApi.list(searchParam, page));

  const deletion = useDeleteConfirmation({
    remove: (user: User) => usersApi.remove(user.id),
    deletedMessage: t('users.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.lists }),
    title: (user) => t('users.deleteTitle', { name: user.name }),
    message: t('users.deleteMessage'),
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
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('users.searchPlaceholder')}
            testId="users-search"
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
      <ListTable
        testId="users-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`users.columns.${column}`),
          align: column === 'actions' ? 'right' : 'left',
        }))}
        rowCount={rows.length}
        loading={users.isPending}
        loadingMore={users.isFetchingNextPage}
        loadMore={{ hasMore: users.hasNextPage, busy: users.isFetching, next: () => void users.fetchNextPage() }}
        skeletonRows={3}
      >
        {rows.map((user) => (
          <UserRow
            key={user.id}
            user={user}
            onEdit={() => setModal({ open: true, userId: user.id })}
            onDelete={() => deletion.ask(user)}
          />
        ))}
      </ListTable>
      <UserModal
        open={modal.open}
        userId={modal.open ? modal.userId : null}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
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
