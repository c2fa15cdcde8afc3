import type { Queue } from '@balcao/shared';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

import { ColorChip } from './ColorChip';

type QueueOption = Pick<Queue, 'id' | 'name' | 'color'>;

/** A queue's colour as a small dot before its name; `outlined` rings it (a selected filter). */
export function QueueDot({ color, outlined = false }: { color: string; outlined?: boolean }) {
  return (
    <Box
      component="span"
      sx={{
        width: 12,
        height: 12,
        borderRadius: '50%',
        bgcolor: color,
        mr: 1.5,
        ...(outlined ? { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 } : {}),
      }}
    />
  );
}

interface QueueSelectProps {
  queues: QueueOption[];
  value: number | '';
  onChange: (queueId: number | '') => void;
  label: string;
  /** The `data-testid` of the field and of each option (`${optionTestId}-${id}`). */
  testId: string;
  optionTestId: string;
  /** The label of a "no queue" choice; without it there is none. */
  emptyLabel?: string;
  required?: boolean;
  error?: boolean;
  helperText?: string;
}

/** Picks one queue (or none, when `emptyLabel` offers it). */
export function QueueSelect({
  queues,
  value,
  onChange,
  label,
  testId,
  optionTestId,
  emptyLabel,
  ...field
}: QueueSelectProps) {
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))}
      data-testid={testId}
      {...field}
    >
      {emptyLabel && (
        <MenuItem value="">
          <em>{emptyLabel}</em>
        </MenuItem>
      )}
      {queues.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} data-testid={`${optionTestId}-${queue.id}`}>
          <QueueDot color={queue.color} />
          {queue.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface QueueMultiSelectProps<T extends FieldValues> {
  /** The react-hook-form field holding the chosen queue ids. */
  control: Control<T>;
  name: FieldPath<T>;
  /** The company's queues; undefined while they load. */
  queues: QueueOption[] | undefined;
  label: string;
  testId: string;
  /** The `data-testid` prefix of the options (`${optionTestId}-${id}`); without it they have none. */
  optionTestId?: string;
  helperText?: string;
}

/** Picks several queues, shown as coloured chips (a user's or a connection's queues). */
export function QueueMultiSelect<T extends FieldValues>({
  control,
  name,
  queues,
  label,
  testId,
  optionTestId,
  helperText,
}: QueueMultiSelectProps<T>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          {...field}
          select
          label={label}
          fullWidth
          helperText={helperText}
          data-testid={testId}
          slotProps={{
            select: {
              multiple: true,
              renderValue: (selected) => (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {(selected as number[]).map((id) => {
                    const queue = queues?.find((q) => q.id === id);
                    return <ColorChip key={id} size="small" label={queue?.name ?? id} color={queue?.color} />;
                  })}
                </Box>
              ),
            },
          }}
        >
          {(queues ?? []).map((queue) => (
            <MenuItem
              key={queue.id}
              value={queue.id}
              data-testid={optionTestId ? `${optionTestId}-${queue.id}` : undefined}
            >
              <QueueDot color={queue.color} />
              {queue.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
