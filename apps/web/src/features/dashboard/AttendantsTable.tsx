import type { DashboardAttendant } from '@balcao/shared';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Rating from '@mui/material/Rating';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PersonAvatar } from '../../components/PersonAvatar';
import { attendantTime } from './dashboardFormat';

const SCALE = [1, 2, 3, 4, 5] as const;

/** The average to one decimal (or N/A) above the scale's legend, 1 Muito Insatisfeito … 5 Muito Satisfeito. */
function RatingLegend({ rating }: { rating: number | null }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.25}>
      <Typography variant="body2" sx={{ fontWeight: 700 }}>
        {rating === null ? t('dashboard.na') : rating.toFixed(1)}
      </Typography>
      {SCALE.map((n) => (
        <Typography key={n} variant="caption">
          {n} - {t(`dashboard.attendants.scale.${n}`)}
        </Typography>
      ))}
    </Stack>
  );
}

/** Spec part 2 §2: the attendants of the period, shown only when there is one. */
export function AttendantsTable({ attendants }: { attendants: DashboardAttendant[] }) {
  const { t } = useTranslation();
  if (attendants.length === 0) return null;
  return (
    <TableContainer component={Paper} variant="outlined" data-testid="dashboard-attendants">
      <Table size="small" sx={{ minWidth: 560 }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('dashboard.attendants.name')}</TableCell>
            <TableCell align="center">{t('dashboard.attendants.rating')}</TableCell>
            <TableCell align="center">{t('dashboard.attendants.avgSupportTime')}</TableCell>
            <TableCell align="center">{t('dashboard.attendants.finished')}</TableCell>
            <TableCell align="center">{t('dashboard.attendants.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {attendants.map((a) => (
            <TableRow key={a.id} data-testid={`attendant-${a.id}`}>
              <TableCell>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                  <PersonAvatar name={a.name} src={a.avatar} size={32} />
                  <Typography variant="body2">{a.name}</Typography>
                </Stack>
              </TableCell>
              <TableCell align="center">
                <Tooltip title={<RatingLegend rating={a.rating} />} arrow>
                  {/* The tooltip needs an element that takes its listeners; a read-only Rating does not. */}
                  <span data-testid={`attendant-rating-${a.id}`}>
                    <Rating value={a.rating ?? 0} precision={0.5} max={5} readOnly size="small" />
                  </span>
                </Tooltip>
              </TableCell>
              <TableCell align="center" data-testid={`attendant-time-${a.id}`}>
                {attendantTime(a.avgSupportTime) ?? t('dashboard.na')}
              </TableCell>
              <TableCell align="center">{a.supportFinished}</TableCell>
              <TableCell align="center">
                <Chip
                  size="small"
                  data-testid={`attendant-online-${a.id}`}
                  label={t(a.online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline')}
                  color={a.online ? 'success' : 'default'}
                  variant={a.online ? 'filled' : 'outlined'}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
