import { AVATAR_MAX_BYTES, type User } from '@balcao/shared';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import PhotoCamera from '@mui/icons-material/PhotoCameraOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useAuth, useSessionUser } from '../../app/AuthContext';
import { PersonAvatar } from '../../components/PersonAvatar';
import { toastError } from '../../components/toastError';
import { usersApi } from './usersApi';

const ACCEPTED = ['image/png', 'image/jpeg'];

/**
 * The user's picture in the user dialog: chosen and removed on its own (beyond the spec), saved at once,
 * apart from the form. The server checks the bytes and squares it; the type and size are checked here
 * first so that a wrong file is refused without uploading it.
 */
export function AvatarPicker({ user }: { user: User }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const queryClient = useQueryClient();

  const change = useMutation({
    mutationFn: (file: File | null) => (file ? usersApi.uploadAvatar(user.id, file) : usersApi.removeAvatar(user.id)),
    onSuccess: async (saved, file) => {
      toast.success(t(file ? 'userModal.avatar.saved' : 'userModal.avatar.removed'));
      queryClient.setQueryData(queryKeys.users.detail(saved.id), saved);
      if (saved.id === me.id) updateUser({ avatar: saved.avatar });
      await queryClient.invalidateQueries({ queryKey: queryKeys.users.lists });
    },
    onError: toastError,
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a refusal.
    event.target.value = '';
    if (!file) return;
    if (!ACCEPTED.includes(file.type)) return void toast.error(t('userModal.avatar.wrongType'));
    if (file.size > AVATAR_MAX_BYTES)
      return void toast.error(t('userModal.avatar.tooLarge', { mb: AVATAR_MAX_BYTES / 1024 / 1024 }));
    change.mutate(file);
  };

  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="user-avatar">
      <PersonAvatar name={user.name} src={user.avatar} size={72} data-testid="user-avatar-image" />
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Stack direction="row" spacing={1}>
          <Button
            component="label"
            variant="outlined"
            size="small"
            startIcon={<PhotoCamera />}
            disabled={change.isPending}
            data-testid="user-avatar-change"
          >
            {t(user.avatar ? 'userModal.avatar.change' : 'userModal.avatar.add')}
            <input hidden type="file" accept={ACCEPTED.join(',')} onChange={choose} data-testid="user-avatar-input" />
          </Button>
          {user.avatar && (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteOutline />}
              disabled={change.isPending}
              onClick={() => change.mutate(null)}
              data-testid="user-avatar-remove"
            >
              {t('userModal.avatar.remove')}
            </Button>
          )}
        </Stack>
        <Typography variant="caption" color="text.secondary">
          {t('userModal.avatar.hint', { mb: AVATAR_MAX_BYTES / 1024 / 1024 })}
        </Typography>
      </Stack>
    </Stack>
  );
}
