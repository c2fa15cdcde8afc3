import type { Plan } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys';
import { FormNumberField, FormSwitch, FormTextField } from '../../../components/FormFields';
import { ListTable } from '../../../components/ListTable';
import { RowActions } from '../../../components/RowActions';
import { useConfirmation } from '../../../components/useConfirmation';
import { translateValidation } from '../../../i18n/validation';
import { AdminForm, fullRow } from './AdminForm';
import { plansApi } from './adminApi';
import { deleteFailed, loadFailed, operationDone, saveFailed } from './adminFeedback';
import {
  emptyPlanForm,
  formatBrl,
  PLAN_FLAG_ORDER,
  PLAN_VALUE_INVALID,
  type PlanFormValues,
  planBody,
  planFormSchema,
  planToForm,
} from './planForm';

const LIMITS = ['users', 'connections', 'queues'] as const;

function PlanRow({ plan, onEdit, onDelete }: { plan: Plan; onEdit: () => void; onDelete: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <TableRow hover data-testid={`plan-row-${plan.id}`}>
      <TableCell sx={{ fontWeight: 600 }}>{plan.name}</TableCell>
      {LIMITS.map((limit) => (
        <TableCell key={limit} align="right">
          {plan[limit]}
        </TableCell>
      ))}
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} data-testid={`plan-value-${plan.id}`}>
        {formatBrl(plan.value, i18n.language)}
      </TableCell>
      {PLAN_FLAG_ORDER.map((flag) => (
        <TableCell key={flag} align="center" data-testid={`plan-${flag}-${plan.id}`}>
          <Chip
            size="small"
            variant={plan[flag] ? 'filled' : 'outlined'}
            color={plan[flag] ? 'success' : 'default'}
            label={t(plan[flag] ? 'settings.admin.yes' : 'settings.admin.no')}
          />
        </TableCell>
      ))}
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <RowActions
          onEdit={onEdit}
          editTestId={`plan-edit-${plan.id}`}
          onDelete={onDelete}
          deleteTestId={`plan-delete-${plan.id}`}
        />
      </TableCell>
    </TableRow>
  );
}

function PlanForm({ plan, onDone, onDelete }: { plan: Plan | null; onDone: () => void; onDelete?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<PlanFormValues>({
    resolver: zodResolver(planFormSchema),
    defaultValues: plan ? planToForm(plan) : emptyPlanForm,
  });

  const save = useMutation({
    mutationFn: (values: PlanFormValues) =>
      plan ? plansApi.update(plan.id, planBody(values)) : plansApi.create(planBody(values)),
    onSuccess: async () => {
      operationDone();
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.plans });
      onDone();
    },
    onError: saveFailed<PlanFormValues>(t('settings.plans.saveFailed'), setError, { ERR_DUPLICATED_NAME: 'name' }),
  });

  return (
    <AdminForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onClear={onDone}
      editing={plan !== null}
      onDelete={onDelete}
      pending={save.isPending}
      testIdPrefix="plan"
    >
      <FormTextField control={control} name="name" label={t('settings.plans.name')} fullWidth testId="plan-name" />
      {LIMITS.map((limit) => (
        <FormNumberField
          key={limit}
          control={control}
          name={limit}
          label={t(`settings.plans.${limit}`)}
          fullWidth
          testId={`plan-${limit}`}
        />
      ))}
      <Controller
        name="value"
        control={control}
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            fullWidth
            label={t('settings.plans.value')}
            error={Boolean(fieldState.error)}
            helperText={
              fieldState.error?.message === PLAN_VALUE_INVALID
                ? t('settings.plans.valueInvalid')
                : translateValidation(t, fieldState.error?.message)
            }
            slotProps={{
              htmlInput: { inputMode: 'decimal', 'data-testid': 'plan-value' },
              input: { startAdornment: <InputAdornment position="start">R$</InputAdornment> },
            }}
          />
        )}
      />
      <Box sx={{ ...fullRow, display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
        {PLAN_FLAG_ORDER.map((flag) => (
          <FormSwitch
            key={flag}
            control={control}
            name={flag}
            label={t(`settings.plans.flags.${flag}`)}
            testId={`plan-${flag}`}
          />
        ))}
      </Box>
    </AdminForm>
  );
}

/** "Planos" (spec part 2 §2–3, super user): the plan form above the table; the edit icon loads a row. */
export function PlansTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const plans = useQuery({ queryKey: queryKeys.admin.plans, queryFn: plansApi.list });
  const [editing, setEditing] = useState<Plan | null>(null);
  const [formKey, setFormKey] = useState(0);
  const load = (plan: Plan | null) => {
    setEditing(plan);
    setFormKey((key) => key + 1);
  };

  const remove = useMutation({
    mutationFn: (plan: Plan) => plansApi.remove(plan.id),
    onSuccess: async (_reply, plan) => {
      operationDone();
      if (editing?.id === plan.id) load(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.plans });
    },
    onError: deleteFailed,
  });
  const deletion = useConfirmation<Plan>({
    title: (plan) => t('settings.plans.deleteTitle', { name: plan.name }),
    message: t('settings.admin.deleteMessage'),
    onConfirm: (plan) => remove.mutate(plan),
  });

  useEffect(() => {
    if (plans.isError) loadFailed();
  }, [plans.isError]);

  const rows = plans.data ?? [];
  const columns = [
    { id: 'name', label: t('settings.plans.name') },
    ...LIMITS.map((limit) => ({ id: limit, label: t(`settings.plans.${limit}`), align: 'right' as const })),
    { id: 'value', label: t('settings.plans.value'), align: 'right' as const },
    ...PLAN_FLAG_ORDER.map((flag) => ({
      id: flag,
      label: t(`settings.plans.flags.${flag}`),
      align: 'center' as const,
    })),
    { id: 'actions', label: t('common.actions'), align: 'right' as const },
  ];

  return (
    <Stack spacing={3} data-testid="plans-tab">
      <PlanForm
        key={formKey}
        plan={editing}
        onDone={() => load(null)}
        onDelete={editing ? () => deletion.ask(editing) : undefined}
      />
      <ListTable
        testId="plans-list"
        columns={columns}
        rowCount={rows.length}
        loading={plans.isPending}
        skeletonRows={3}
      >
        {rows.map((plan) => (
          <PlanRow key={plan.id} plan={plan} onEdit={() => load(plan)} onDelete={() => deletion.ask(plan)} />
        ))}
      </ListTable>
      {deletion.dialog}
    </Stack>
  );
}
