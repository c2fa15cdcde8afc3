import type { DashboardReply } from '@balcao/shared';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { hourLabel } from './dashboardFormat';

/** Today's tickets in 24 hourly bars, labelled 01:00 … 00:00, one series 'Tickets' with the day's total. */
export function HourlyChart({ hourly }: { hourly: DashboardReply['hourly'] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const total = hourly.reduce((sum, h) => sum + h.count, 0);
  const data = hourly.map((h) => ({ label: hourLabel(h.hour), count: h.count }));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={theme.palette.divider} />
        <XAxis
          dataKey="label"
          tick={{ fontSize: 11, fill: theme.palette.text.secondary }}
          interval="preserveStartEnd"
        />
        <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: theme.palette.text.secondary }} />
        <Tooltip
          cursor={{ fill: theme.palette.action.hover }}
          contentStyle={{ background: theme.palette.background.paper, borderColor: theme.palette.divider }}
        />
        <Legend />
        <Bar
          dataKey="count"
          name={t('dashboard.chart.series', { total })}
          fill={theme.palette.primary.main}
          radius={[4, 4, 0, 0]}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
