import { type Company, can, type WeeklyScheduleEntry } from '@balcao/shared';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { http } from '../../api/client';
import { useSessionUser } from '../../app/AuthContext';
import { toastError } from '../../components/toastError';
import { DEFAULT_QUEUE_SCHEDULES, maskTime } from '../queues/queueForm';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const validTime = (v: string) => v === '' || TIME.test(v);

export const companyHoursKey = (companyId: number) => ['companies', 'detail', companyId] as const;

export const companyHoursApi = {
  get: (companyId: number) => http.get<Company>(`/companies/${companyId}`),
  save: (companyId: number, schedules: WeeklyScheduleEntry[]) =>
    http.put<Company>(`/companies/${companyId}/schedules`, { schedules }),
};

/** The company's stored hours, Monday to Sunday; a missing day takes the default. */
export function companySchedulesOf(schedules: readonly WeeklyScheduleEntry[] | undefined): WeeklyScheduleEntry[] {
  return DEFAULT_QUEUE_SCHEDULES.map((day) => ({
    ...(schedules?.find((s) => s.weekdayEn === day.weekdayEn) ?? day),
  }));
}

type Edge = 'startTime' | 'endTime';

/** "Horários" (spec part 2, Settings): the company's weekly hours, start and end per day (##:##). */
export function CompanyHoursTab() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const editable = can(me.profile, 'settings:edit');
  const queryClient = useQueryClient();
  const company = useQuery({
    queryKey: companyHoursKey(me.companyId),
    queryFn: () => companyHoursApi.get(me.companyId),
  });
  const [days, setDays] = useState<WeeklyScheduleEntry[]>(() => companySchedulesOf(undefined));

  useEffect(() => {
    if (company.data) setDays(companySchedulesOf(company.data.schedules));
  }, [company.data]);

  const save = useMutation({
    mutationFn: (schedules: WeeklyScheduleEntry[]) => companyHoursApi.save(me.companyId, schedules),
    onSuccess: (saved) => {
      queryClient.setQueryData(companyHoursKey(me.companyId), saved);
      toast.success(t('settings.saved'));
    },
    onError: toastError,
  });

  const change = (index: number, edge: Edge, value: string) =>
    setDays((list) => list.map((d, i) => (i === index ? { ...d, [edge]: maskTime(value) } : d)));
  const invalid = days.some((d) => !validTime(d.startTime) || !validTime(d.endTime));

  if (company.isPending) {
    return (
      <Stack spacing={1.5} data-testid="company-hours-tab">
        {DEFAULT_QUEUE_SCHEDULES.map((d) => (
          <Skeleton key={d.weekdayEn} variant="rounded" height={40} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack spacing={1.5} data-testid="company-hours-tab">
      {!editable && <Alert severity="info">{t('settings.readOnly')}</Alert>}
      <Typography variant="body2" color="text.secondary">
        {t('queueModal.schedulesHelp')}
      </Typography>
      {days.map((day, index) => (
        <Stack key={day.weekdayEn} direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography sx={{ width: 140, pt: 1 }}>{t(`queueModal.weekdays.${day.weekdayEn}`)}</Typography>
          {(['startTime', 'endTime'] as const).map((edge) => {
            const error = !validTime(day[edge]);
            return (
              <TextField
                key={edge}
                size="small"
                label={t(`queueModal.${edge}`)}
                placeholder="00:00"
                value={day[edge]}
                disabled={!editable}
                onChange={(event) => change(index, edge, event.target.value)}
                error={error}
                helperText={error ? t('queueModal.invalidTime') : undefined}
                slotProps={{
                  htmlInput: {
                    inputMode: 'numeric',
                    maxLength: 5,
                    'data-testid': `company-hours-${edge === 'startTime' ? 'start' : 'end'}-${day.weekdayEn}`,
                  },
                }}
              />
            );
          })}
        </Stack>
      ))}
      {editable && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button
            variant="contained"
            disabled={invalid || save.isPending}
            onClick={() => save.mutate(days)}
            data-testid="company-hours-save"
          >
            {t('common.save')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
