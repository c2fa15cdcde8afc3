import { type Company, formatDueDate } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import EventRepeat from '@mui/icons-material/EventRepeat';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys';
import { useSessionUser } from '../../../app/AuthContext';
import { FormPasswordField, FormSwitch, FormTextField } from '../../../components/FormFields';
import { ListTable } from '../../../components/ListTable';
import { RowActions } from '../../../components/RowActions';
import { useConfirmation } from '../../../components/useConfirmation';
import { translateValidation } from '../../../i18n/validation';
import { AdminForm } from './AdminForm';
import { companiesApi, plansApi } from './adminApi';
import { deleteFailed, loadFailed, operationDone, saveFailed } from './adminFeedback';
import { DUE_DATE_TONE_COLORS, dueDateTone, extendDueDate } from './companyDueDate';
import {
  type CompanyFormValues,
  companyCreateBody,
  companyFormSchema,
  companyToForm,
  companyUpdateBody,
  emptyCompanyForm,
  recurrenceOptions,
} from './companyForm';

const COLUMNS = ['name', 'email', 'phone', 'plan', 'campaigns', 'status', 'createdAt', 'dueDate', 'actions'] as const;

function CompanyRow({ company, onEdit, onDelete }: { company: Company; onEdit: () => void; onDelete?: () => void }) {
  const { t } = useTranslation();
  const tone = dueDateTone(company.dueDate);
  return (
    <TableRow
      hover={!tone}
      data-testid={`company-row-${company.id}`}
      data-due-tone={tone ?? 'none'}
      // The spec's pale colours: the row keeps dark text on them in the dark theme too.
      sx={tone ? { bgcolor: DUE_DATE_TONE_COLORS[tone], '& > td': { color: 'rgba(0, 0, 0, 0.87)' } } : undefined}
    >
      <TableCell sx={{ fontWeight: 600 }}>{company.name}</TableCell>
      <TableCell>{company.email}</TableCell>
      <TableCell>{company.phone}</TableCell>
      <TableCell>{company.plan?.name}</TableCell>
      <TableCell>
        {t(company.campaignsEnabled ? 'settings.companies.enabled' : 'settings.companies.disabled')}
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          color={company.status ? 'success' : 'default'}
          label={t(company.status ? 'settings.admin.yes' : 'settings.admin.no')}
        />
      </TableCell>
      <TableCell>{formatDueDate(company.createdAt)}</TableCell>
      <TableCell data-testid={`company-due-${company.id}`}>
        {company.dueDate ? formatDueDate(company.dueDate) : '—'}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <RowActions
          onEdit={onEdit}
          editTestId={`company-edit-${company.id}`}
          onDelete={onDelete}
          deleteTestId={`company-delete-${company.id}`}
        />
      </TableCell>
    </TableRow>
  );
}

interface CompanyFormProps {
  company: Company | null;
  onDone: () => void;
  onDelete?: () => void;
}

function CompanyForm({ company, onDone, onDelete }: CompanyFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mode = company ? 'edit' : 'create';
  const { control, handleSubmit, setError, setValue, getValues, watch } = useForm<CompanyFormValues>({
    resolver: zodResolver(companyFormSchema(mode)),
    defaultValues: company ? companyToForm(company) : emptyCompanyForm,
  });
  const plans = useQuery({ queryKey: queryKeys.admin.plans, queryFn: plansApi.list });
  const recurrence = watch('recurrence');

  const save = useMutation({
    mutationFn: (values: CompanyFormValues) =>
      company
        ? companiesApi.update(company.id, companyUpdateBody(values))
        : companiesApi.create(companyCreateBody(values)),
    onSuccess: async () => {
      operationDone();
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.companies });
      onDone();
    },
    onError: saveFailed<CompanyFormValues>(t('settings.companies.saveFailed'), setError, {
      ERR_DUPLICATED_NAME: 'name',
      ERR_DUPLICATED_EMAIL: 'email',
      ERR_NO_PLAN_FOUND: 'planId',
    }),
  });

  const error = (message: string | undefined) => translateValidation(t, message);

  return (
    <AdminForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onClear={onDone}
      editing={company !== null}
      onDelete={onDelete}
      pending={save.isPending}
      testIdPrefix="company"
    >
      <FormTextField
        control={control}
        name="name"
        label={t('settings.companies.name')}
        fullWidth
        testId="company-name"
      />
      <FormTextField
        control={control}
        name="email"
        label={t('settings.companies.email')}
        type="email"
        fullWidth
        testId="company-email"
      />
      <FormTextField
        control={control}
        name="phone"
        label={t('settings.companies.phone')}
        fullWidth
        testId="company-phone"
      />
      <Controller
        name="planId"
        control={control}
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            value={field.value || ''}
            onChange={(event) => field.onChange(Number(event.target.value))}
            select
            fullWidth
            label={t('settings.companies.plan')}
            error={Boolean(fieldState.error)}
            helperText={error(fieldState.error?.message)}
            slotProps={{ htmlInput: { 'data-testid': 'company-plan' } }}
          >
            {(plans.data ?? []).map((plan) => (
              <MenuItem key={plan.id} value={plan.id} data-testid={`company-plan-option-${plan.id}`}>
                {plan.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Controller
          name="dueDate"
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              type="date"
              fullWidth
              label={t('settings.companies.dueDate')}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'company-due-date' } }}
            />
          )}
        />
        <Button
          variant="outlined"
          onClick={() =>
            setValue('dueDate', extendDueDate(getValues('dueDate'), getValues('recurrence')), { shouldDirty: true })
          }
          startIcon={<EventRepeat />}
          sx={{ flexShrink: 0, height: 56 }}
          data-testid="company-extend-due-date"
        >
          {t('settings.companies.extendDueDate')}
        </Button>
      </Stack>
      <Controller
        name="recurrence"
        control={control}
        render={({ field }) => (
          <TextField
            {...field}
            select
            fullWidth
            label={t('settings.companies.recurrence')}
            slotProps={{ htmlInput: { 'data-testid': 'company-recurrence' } }}
          >
            {recurrenceOptions(recurrence).map((option) => (
              <MenuItem key={option} value={option}>
                {t(`settings.companies.recurrences.${option}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <FormSwitch control={control} name="status" label={t('settings.companies.status')} testId="company-status" />
      <FormSwitch
        control={control}
        name="campaignsEnabled"
        label={t('settings.companies.campaigns')}
        testId="company-campaigns"
      />
      {mode === 'create' && (
        <>
          <FormTextField
            control={control}
            name="adminName"
            label={t('settings.companies.adminName')}
            helperText={t('settings.companies.adminNameHelp')}
            fullWidth
            testId="company-admin-name"
          />
          <FormPasswordField
            control={control}
            name="password"
            label={t('settings.companies.password')}
            toggleLabel={t('settings.companies.showPassword')}
            autoComplete="new-password"
            fullWidth
            testId="company-password"
          />
        </>
      )}
    </AdminForm>
  );
}

function useCompanyDeletion(onDeleted: (company: Company) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (company: Company) => companiesApi.remove(company.id),
    onSuccess: async (_reply, company) => {
      operationDone();
      onDeleted(company);
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.companies });
    },
    onError: deleteFailed,
  });
  return useConfirmation<Company>({
    title: (company) => t('settings.companies.deleteTitle', { name: company.name }),
    message: t('settings.companies.deleteMessage'),
    onConfirm: (company) => remove.mutate(company),
  });
}

/** "Empresas" (spec part 2 §2–3, super user): the company form above the table of every company. */
export function CompaniesTab() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const companies = useQuery({ queryKey: queryKeys.admin.companies, queryFn: companiesApi.list });
  const [editing, setEditing] = useState<Company | null>(null);
  // A new key resets the form: after a save, a delete or "clear", and when another row is loaded.
  const [formKey, setFormKey] = useState(0);
  const load = (company: Company | null) => {
    setEditing(company);
    setFormKey((key) => key + 1);
  };
  const deletion = useCompanyDeletion((deleted) => {
    if (editing?.id === deleted.id) load(null);
  });
  // The platform company (the super user's own) cannot be deleted.
  const deletable = (company: Company) => company.id !== me.companyId;

  useEffect(() => {
    if (companies.isError) loadFailed();
  }, [companies.isError]);

  const rows = companies.data ?? [];
  return (
    <Stack spacing={3} data-testid="companies-tab">
      <CompanyForm
        key={formKey}
        company={editing}
        onDone={() => load(null)}
        onDelete={editing && deletable(editing) ? () => deletion.ask(editing) : undefined}
      />
      <ListTable
        testId="companies-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: column === 'actions' ? t('common.actions') : t(`settings.companies.columns.${column}`),
          align: column === 'actions' ? 'right' : 'left',
        }))}
        rowCount={rows.length}
        loading={companies.isPending}
        skeletonRows={3}
      >
        {rows.map((company) => (
          <CompanyRow
            key={company.id}
            company={company}
            onEdit={() => load(company)}
            onDelete={deletable(company) ? () => deletion.ask(company) : undefined}
          />
        ))}
      </ListTable>
      {deletion.dialog}
    </Stack>
  );
}
