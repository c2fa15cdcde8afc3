import {
  CAMPAIGN_VARIABLES_MAX,
  type CampaignSettings,
  campaignVariableSchema,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  msg,
  RESERVED_CAMPAIGN_VARIABLES,
} from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import Save from '@mui/icons-material/Save';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { translateValidation } from '../../i18n/validation';
import { type CampaignVariable, campaignKeys, campaignsApi, settingsOf, useCampaignSettings } from './campaignsApi';

type IntervalKey = 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval';

/** Spec part 2 §9: the three selects, their options and what 0 means in each. */
const INTERVALS: { key: IntervalKey; options: readonly number[]; unit: 'seconds' | 'messages'; zero: string }[] = [
  { key: 'messageInterval', options: MESSAGE_INTERVAL_OPTIONS, unit: 'seconds', zero: 'noInterval' },
  { key: 'longerIntervalAfter', options: LONGER_INTERVAL_OPTIONS, unit: 'messages', zero: 'notDefined' },
  { key: 'greaterInterval', options: LONGER_INTERVAL_OPTIONS, unit: 'seconds', zero: 'notDefined' },
];

const reserved = (key: string) => (RESERVED_CAMPAIGN_VARIABLES as readonly string[]).includes(key);

/** The shortcut and content of a new variable; a shortcut already used (or a built-in one) is refused. */
function AddVariable({ variables, onAdd }: { variables: CampaignVariable[]; onAdd: (v: CampaignVariable) => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ key?: string; value?: string }>({});

  const add = (event: FormEvent) => {
    event.preventDefault();
    const parsed = campaignVariableSchema.safeParse({ key, value });
    const found: { key?: string; value?: string } = {};
    if (!key.trim()) found.key = translateValidation(t, msg.required);
    else if (!parsed.success && parsed.error.issues.some((i) => i.path[0] === 'key'))
      found.key = t('campaignsConfig.keyInvalid');
    else if (reserved(key.trim()) || variables.some((v) => v.key === key.trim()))
      found.key = t('campaignsConfig.keyUsed');
    if (!value.trim()) found.value = translateValidation(t, msg.required);
    else if (!parsed.success && parsed.error.issues.some((i) => i.path[0] === 'value'))
      found.value = translateValidation(t, parsed.error.issues.find((i) => i.path[0] === 'value')?.message);
    if (!found.key && !found.value && variables.length >= CAMPAIGN_VARIABLES_MAX)
      found.key = t('campaignsConfig.tooMany', { max: CAMPAIGN_VARIABLES_MAX });
    setErrors(found);
    if (found.key || found.value || !parsed.success) return;
    onAdd(parsed.data);
    setKey('');
    setValue('');
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 2 }}>
        {t('campaignsConfig.addVariable')}
      </Typography>
      <Stack component="form" noValidate onSubmit={add} direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t('campaignsConfig.shortcut')}
          value={key}
          onChange={(event) => setKey(event.target.value)}
          error={Boolean(errors.key)}
          helperText={errors.key ?? t('campaignsConfig.shortcutHelp')}
          sx={{ minWidth: { sm: 220 } }}
          slotProps={{ htmlInput: { 'data-testid': 'campaign-variable-key' } }}
        />
        <TextField
          label={t('campaignsConfig.content')}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={Boolean(errors.value)}
          helperText={errors.value}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'campaign-variable-value' } }}
        />
        <Button
          type="submit"
          variant="outlined"
          startIcon={<Add />}
          sx={{ alignSelf: { sm: 'flex-start' }, mt: { sm: 1 } }}
          data-testid="campaign-variable-add"
        >
          {t('common.add')}
        </Button>
      </Stack>
    </Paper>
  );
}

function SettingsForm({ initial }: { initial: CampaignSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const save = useMutation({
    mutationFn: () => campaignsApi.saveSettings(settings),
    onSuccess: (records) => {
      queryClient.setQueryData(campaignKeys.settings, settingsOf(records));
      toast.success(t('campaignsConfig.saved'));
    },
    onError: toastError,
  });
  const optionLabel = (interval: (typeof INTERVALS)[number], n: number) =>
    n === 0 ? t(`campaignsConfig.${interval.zero}`) : t(`campaignsConfig.${interval.unit}`, { count: n });

  return (
    <Stack spacing={2} sx={{ flex: 1, minHeight: 0 }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 2 }}>
          {t('campaignsConfig.intervals')}
        </Typography>
        <Grid container spacing={2}>
          {INTERVALS.map((interval) => (
            <Grid key={interval.key} size={{ xs: 12, sm: 4 }}>
              <TextField
                select
                fullWidth
                label={t(`campaignsConfig.${interval.key}`)}
                value={settings[interval.key]}
                onChange={(event) => setSettings({ ...settings, [interval.key]: Number(event.target.value) })}
                data-testid={`campaigns-config-${interval.key}`}
              >
                {interval.options.map((n) => (
                  <MenuItem key={n} value={n}>
                    {optionLabel(interval, n)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          ))}
        </Grid>
      </Paper>
      <AddVariable
        variables={settings.variables}
        onAdd={(variable) => setSettings({ ...settings, variables: [...settings.variables, variable] })}
      />
      <ListTable
        testId="campaign-variables"
        columns={[
          { id: 'key', label: t('campaignsConfig.shortcut') },
          { id: 'value', label: t('campaignsConfig.content') },
          { id: 'actions', label: t('common.actions'), align: 'right' },
        ]}
        rowCount={settings.variables.length}
        loading={false}
        emptyText={t('campaignsConfig.noVariables')}
      >
        {settings.variables.map((variable) => (
          <TableRow key={variable.key} data-testid={`campaign-variable-${variable.key}`}>
            <TableCell sx={{ fontFamily: 'monospace' }}>{`{${variable.key}}`}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{variable.value}</TableCell>
            <TableCell align="right">
              <Tooltip title={t('common.delete')}>
                <IconButton
                  size="small"
                  color="error"
                  onClick={() =>
                    setSettings({ ...settings, variables: settings.variables.filter((v) => v.key !== variable.key) })
                  }
                  data-testid={`campaign-variable-delete-${variable.key}`}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button
          variant="contained"
          startIcon={<Save />}
          disabled={save.isPending}
          onClick={() => save.mutate()}
          data-testid="campaigns-config-save"
        >
          {t('common.save')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** /campaigns-config (spec part 2 §2 "Campaigns", the settings page; §9 the intervals). */
export default function CampaignsConfigPage() {
  const { t } = useTranslation();
  const settings = useCampaignSettings();
  return (
    <PageContainer title={t('pages.campaignsConfig')}>
      {settings.data ? (
        <SettingsForm initial={settings.data} />
      ) : settings.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void settings.refetch()}>
              {t('campaignsConfig.retry')}
            </Button>
          }
        >
          {t('campaignsConfig.loadFailed')}
        </Alert>
      ) : (
        <Skeleton variant="rounded" height={240} data-testid="campaigns-config-loading" />
      )}
    </PageContainer>
  );
}
