import { can } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useAuth, useSessionUser } from '../../app/AuthContext';
import { Can } from '../../components/Can';
import { DialogForm } from '../../components/DialogForm';
import { FormNumberField, FormPasswordField, FormTextField } from '../../components/FormFields';
import { QueueMultiSelect } from '../../components/QueueSelect';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { useQueues } from '../queues/queuesApi';
import { AvatarPicker } from './AvatarPicker';
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
  const mode = userId === null ? 'create' : 'edit';
  const manage = can(me.profile, 'user-modal:editProfile');

  const schema = useMemo(() => userFormSchema(mode), [mode]);
  const { control, handleSubmit, reset, formState, setError } = useForm<UserFormValues>({
    resolver: zodResolver(schema),
    defaultValues: emptyUserForm,
  });

  const existing = useQuery({
    queryKey: queryKeys.users.detail(userId ?? 0),
    queryFn: () => usersApi.show(userId ?? 0),
    enabled: open && userId !== null,
  });
  const queues = useQueues(open && can(me.profile, 'user-modal:editQueues'));

  // The form follows the record's fields, not its avatar: a new picture leaves what is being typed alone.
  const loaded = existing.data ? JSON.stringify(userToForm(existing.data)) : null;
  useEffect(() => {
    if (!open) return;
    reset(userId !== null && loaded ? (JSON.parse(loaded) as UserFormValues) : emptyUserForm);
  }, [open, userId, loaded, reset]);

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
    onError: formErrorHandler(setError, { ERR_DUPLICATED_EMAIL: 'email' }),
  });

  const loading = userId !== null && existing.isPending;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="user-modal">
      <DialogTitle>{t(mode === 'create' ? 'userModal.titleAdd' : 'userModal.titleEdit')}</DialogTitle>
      <DialogForm
        onSubmit={handleSubmit((values) => save.mutate(values))}
        onCancel={onClose}
        testIdPrefix="user-modal"
        editing={mode === 'edit'}
        pending={save.isPending}
        disabled={loading || formState.isSubmitting}
      >
        <DialogContent dividers>
          {loading ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
              <CircularProgress />
            </Box>
          ) : (
            <Stack spacing={2}>
              {existing.data && <AvatarPicker user={existing.data} />}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <FormTextField
                  control={control}
                  name="name"
                  label={t('userModal.name')}
                  autoFocus
                  fullWidth
                  testId="user-name"
                />
                <FormPasswordField
                  control={control}
                  name="password"
                  label={t('userModal.password')}
                  toggleLabel={t('userModal.showPassword')}
                  autoComplete="new-password"
                  fullWidth
                  helperText={mode === 'edit' ? t('userModal.passwordKeep') : undefined}
                  testId="user-password"
                />
              </Stack>
              <FormTextField
                control={control}
                name="email"
                label={t('userModal.email')}
                type="email"
                fullWidth
                testId="user-email"
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
                  <FormNumberField
                    control={control}
                    name="limitAttendance"
                    label={t('userModal.limitAttendance')}
                    fullWidth
                    helperText={t('userModal.limitAttendanceHelp')}
                    testId="user-limit-attendance"
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
                <QueueMultiSelect
                  control={control}
                  name="queueIds"
                  queues={queues.data}
                  label={t('userModal.queues')}
                  testId="user-queues"
                  helperText={queues.data?.length === 0 ? t('userModal.noQueues') : undefined}
                />
              </Can>
            </Stack>
          )}
        </DialogContent>
      </DialogForm>
    </Dialog>
  );
}
