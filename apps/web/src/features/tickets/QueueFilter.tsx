import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { QueueDot } from '../../components/QueueSelect';
import type { useSelectedQueues } from './useSelectedQueues';

/**
 * The queues whose tickets a screen shows (the tickets page, the kanban board): one choice kept per
 * user in the browser, so a queue hidden on one page is hidden on the other, and shown again from either.
 */
export function QueueFilter({ queues, testId }: { queues: ReturnType<typeof useSelectedQueues>; testId: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t('tickets.queues')}
      value={queues.selected}
      sx={{ minWidth: 140, maxWidth: 220 }}
      data-testid={`${testId}-select`}
      slotProps={{
        // "0 filas" rather than an empty field when every queue is hidden.
        inputLabel: { shrink: true },
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) => t('tickets.queuesSelected', { count: (selected as number[]).length }),
        },
      }}
      onChange={(event) => {
        const value = event.target.value as unknown as number[] | string;
        queues.setSelected(typeof value === 'string' ? value.split(',').map(Number) : value);
      }}
    >
      {queues.options.length === 0 && (
        <MenuItem disabled value={-1}>
          {t('tickets.noQueues')}
        </MenuItem>
      )}
      {queues.options.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} data-testid={`${testId}-option-${queue.id}`}>
          <QueueDot color={queue.color} outlined={queues.selected.includes(queue.id)} />
          {queue.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
