import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

export interface RecordSelectProps<T extends FieldValues> {
  control: Control<T>;
  /** A `number | null` field: the record's id, or none. */
  name: FieldPath<T>;
  /** The `data-testid` of the field; each option is `${testId}-option-${id}`. */
  testId: string;
  helperText?: string;
}

/**
 * What a select of records shows for `value`: none until the list (loaded apart) holds it, rather
 * than an out-of-range value, which MUI can only show as blank and warns about.
 */
export const shownValue = (value: number | null | '', records: readonly { id: number }[] | undefined): number | '' =>
  value !== null && value !== '' && records?.some((r) => r.id === value) ? value : '';

/**
 * One record of a list (a prompt, an integration…) or none, for a `number | null` form field. A
 * value not (yet) in the list shows as none rather than as an out-of-range value.
 */
export function RecordSelect<T extends FieldValues, R extends { id: number; name: string }>({
  control,
  name,
  testId,
  helperText,
  label,
  none,
  records,
  option = (r) => r.name,
}: RecordSelectProps<T> & {
  label: string;
  none: string;
  records: readonly R[] | undefined;
  option?: (record: R) => ReactNode;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        return (
          <TextField
            select
            label={label}
            value={shownValue(field.value, records)}
            onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
            helperText={helperText}
            fullWidth
            data-testid={testId}
          >
            <MenuItem value="">
              <em>{none}</em>
            </MenuItem>
            {(records ?? []).map((r) => (
              <MenuItem key={r.id} value={r.id} data-testid={`${testId}-option-${r.id}`}>
                {option(r)}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
}
