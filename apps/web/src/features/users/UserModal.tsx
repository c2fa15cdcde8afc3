import { can } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useAuth, useSessionUser } from '../../app/AuthContext';
import { Can } from '../../components/Can';
import { toastError } from '../../components/toastError';
import { translateValidation } from '../../i18n/validation';
import { useQueues } from '../queues/queuesApi';
import {
  createUserBody,
  emptyUserForm,
  type UserFormValues,
  updateUserBody,
  userFormSchema,
  userToForm,
} from './userForm';
import { usersApi } from './usersApi';

interface UserModalProps {
  open: boolean;
  /** The user to edit; null adds a new one. */
  userId: number | null;
  onClose: () => void;
}

/** Add or edit a user. Profile, attendance limit and queues are shown only to admins. */
export function UserModal({ open, userId, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { reloadUser } = useAuth();
  const queryClient = useQueryClient();
  const [showPassword, setShowPassword] = useState(false);
  const mode = userId === null ? 'create' : 'edit';
  const manage = can(me.profile, 'user-modal:editProfile');

  const schema = useMemo(() => userFormSchema(mode), [mode]);
  const { control, handleSubmit, reset, formState } = useForm<UserFormValues>({
    resolver: zodResolver(schema),
    defaultValues: emptyUserForm,
  });

  const existing = useQuery({
    queryKey: queryKeys.users.detail(userId ?? 0),
    queryFn: () => usersApi.show(userId ?? 0),
    enabled: open && userId !== null,
  });
  const queues = useQueues(open && can(me.profile, 'user-modal:editQueues'));

  useEffect(() => {
    if (!open) return;
    reset(userId !== null && existing.data ? userToForm(existing.data) : emptyUserForm);
    setShowPassword(false);
  }, [open, userId, existing.data, reset]);

  const save = useMutation({
    mutationFn: (values: UserFormValues) =>
      userId === null
        ? usersApi.create(createUserBody(values))
        : usersApi.update(userId, updateUserBody(values, manage)),
    onSuccess: async () => {
      toast.success(t('userModal.success'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
      if (userId === me.id) await reloadUser();
      onClose();
    },
    onError: toastError,
  });

  const errorText = (message: string | undefined) => translateValidation(t, message);
  const loading = userId !== null && existing.isPending;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="user-modal">
      <DialogTitle>{t(mode === 'create' ? 'userModal.titleAdd' : 'userModal.titleEdit')}</DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={handleSubmit((values) => save.mutate(values))}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogContent dividers>
          {loading ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
              <CircularProgress />
            </Box>
          ) : (
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <Controller
                  name="name"
                  control={control}
                  render={({ field, fieldState }) => (
                    <TextField
                      {...field}
                      label={t('userModal.name')}
                      autoFocus
                      fullWidth
                      error={Boolean(fieldState.error)}
                      helperText={errorText(fieldState.error?.message)}
                      slotProps={{ htmlInput: { 'data-testid': 'user-name' } }}
                    />
                  )}
                />
                <Controller
                  name="password"
                  control={control}
                  render={({ field, fieldState }) => (
                    <TextField
                      {...field}
                      label={t('userModal.password')}
                      type={showPassword ? 'text' : 'password'}
                      autoComplete="new-password"
                      fullWidth
                      error={Boolean(fieldState.error)}
                      helperText={
                        errorText(fieldState.error?.message) ??
                        (mode === 'edit' ? t('userModal.passwordKeep') : undefined)
                      }
                      slotProps={{
                        htmlInput: { 'data-testid': 'user-password' },
                        input: {
                          endAdornment: (
                            <InputAdornment position="end">
                              <IconButton
                                aria-label={t('userModal.showPassword')}
                                onClick={() => setShowPassword((shown) => !shown)}
                                edge="end"
                              >
                                {showPassword ? <VisibilityOff /> : <Visibility />}
                              </IconButton>
                            </InputAdornment>
                          ),
                        },
                      }}
                    />
                  )}
                />
              </Stack>
              <Controller
                name="email"
                control={control}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('userModal.email')}
                    type="email"
                    fullWidth
                    error={Boolean(fieldState.error)}
                    helperText={errorText(fieldState.error?.message)}
                    slotProps={{ htmlInput: { 'data-testid': 'user-email' } }}
                  />
                )}
              />
              <Can perform="user-modal:editProfile">
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <Controller
                    name="profile"
                    control={control}
                    render={({ field }) => (
                      <TextField {...field} select label={t('userModal.profile')} fullWidth data-testid="user-profile">
                        {(['admin', 'user'] as const).map((profile) => (
                          <MenuItem key={profile} value={profile} data-testid={`user-profile-option-${profile}`}>
                            {t(`menu.profiles.${profile}`)}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  <Controller
                    name="limitAttendance"
                    control={control}
                    render={({ field, fieldState }) => (
                      <TextField
                        {...field}
                        onChange={(event) =>
                          field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))
                        }
                        value={Number.isNaN(field.value) ? '' : field.value}
                        type="number"
                        label={t('userModal.limitAttendance')}
                        fullWidth
                        error={Boolean(fieldState.error)}
                        helperText={errorText(fieldState.error?.message) ?? t('userModal.limitAttendanceHelp')}
                        slotProps={{ htmlInput: { min: 0, 'data-testid': 'user-limit-attendance' } }}
                      />
                    )}
                  />
                </Stack>
                <Controller
                  name="allTicket"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      select
                      label={t('userModal.allTicket')}
                      fullWidth
                      data-testid="user-all-ticket"
                    >
                      {(['enable', 'disable'] as const).map((option) => (
                        <MenuItem key={option} value={option}>
                          {t(`userModal.allTicketOptions.${option}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Can>
              <Can perform="user-modal:editQueues">
                <Controller
                  name="queueIds"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      select
                      label={t('userModal.queues')}
                      fullWidth
                      data-testid="user-queues"
                      helperText={queues.data?.length === 0 ? t('userModal.noQueues') : undefined}
                      slotProps={{
                        select: {
                          multiple: true,
                          renderValue: (selected) => (
                            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                              {(selected as number[]).map((id) => {
                                const queue = queues.data?.find((q) => q.id === id);
                                return (
                                  <Chip
                                    key={id}
                                    size="small"
                                    label={queue?.name ?? id}
                                    sx={{ bgcolor: queue?.color, color: queue ? '#fff' : undefined }}
                                  />
                                );
                              })}
                            </Box>
                          ),
                        },
                      }}
                    >
                      {(queues.data ?? []).map((queue) => (
                        <MenuItem key={queue.id} value={queue.id}>
                          <Box
                            component="span"
                            sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queue.color, mr: 1.5 }}
                          />
                          {queue.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Can>
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={save.isPending} data-testid="user-modal-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={loading || save.isPending || formState.isSubmitting}
            startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
            data-testid="user-modal-submit"
          >
            {t(mode === 'create' ? 'common.add' : 'common.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
