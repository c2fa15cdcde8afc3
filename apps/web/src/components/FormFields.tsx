import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { type ReactNode, useState } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../i18n/validation';

type PassedProps = Pick<
  TextFieldProps,
  | 'label'
  | 'autoFocus'
  | 'autoComplete'
  | 'fullWidth'
  | 'multiline'
  | 'minRows'
  | 'maxRows'
  | 'placeholder'
  | 'required'
  | 'size'
  | 'sx'
  | 'type'
>;

type ErrorText = (message: string | undefined) => string | undefined;

interface FormFieldProps<T extends FieldValues> extends PassedProps {
  control: Control<T>;
  name: FieldPath<T>;
  /** The `data-testid` of the input element. */
  testId: string;
  /** Shown under the field while it has no error. */
  helperText?: ReactNode;
  /** The text of a validation message; the shared translations by default. */
  errorText?: ErrorText;
  /** More attributes of the input element (inputMode, min). */
  htmlInput?: Record<string, unknown>;
  /** An adornment at the end of the input. */
  endAdornment?: ReactNode;
}

function useErrorText(errorText: ErrorText | undefined): ErrorText {
  const { t } = useTranslation();
  return errorText ?? ((message) => translateValidation(t, message));
}

/**
 * A text field bound to a react-hook-form field: its validation message shows under it, translated.
 * With `type="number"` the field holds a number, NaN while the input is empty (the schema rejects it).
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  testId,
  helperText,
  errorText,
  htmlInput,
  endAdornment,
  ...props
}: FormFieldProps<T>) {
  const textOf = useErrorText(errorText);
  const numeric = props.type === 'number';
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          {...props}
          {...(numeric && {
            onChange: (event) => field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value)),
            value: Number.isNaN(field.value) ? '' : field.value,
          })}
          error={Boolean(fieldState.error)}
          helperText={textOf(fieldState.error?.message) ?? helperText}
          slotProps={{
            htmlInput: { 'data-testid': testId, ...htmlInput },
            ...(endAdornment ? { input: { endAdornment } } : {}),
          }}
        />
      )}
    />
  );
}

/** A count or a number of minutes: a number field from 0. */
export function FormNumberField<T extends FieldValues>({
  htmlInput,
  ...props
}: Omit<FormFieldProps<T>, 'type' | 'endAdornment'>) {
  return <FormTextField {...props} type="number" htmlInput={{ min: 0, ...htmlInput }} />;
}

/** A password field with a button that shows or hides what was typed. */
export function FormPasswordField<T extends FieldValues>({
  toggleLabel,
  ...props
}: Omit<FormFieldProps<T>, 'type' | 'endAdornment'> & { toggleLabel: string }) {
  const [shown, setShown] = useState(false);
  return (
    <FormTextField
      {...props}
      type={shown ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton aria-label={toggleLabel} onClick={() => setShown((value) => !value)} edge="end">
            {shown ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}

interface FormSwitchProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  /** The `data-testid` of the checkbox input. */
  testId: string;
}

/** An on/off switch with its label, bound to a boolean react-hook-form field. */
export function FormSwitch<T extends FieldValues>({ control, name, label, testId }: FormSwitchProps<T>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormControlLabel
          control={
            <Switch
              checked={field.value}
              onChange={(event) => field.onChange(event.target.checked)}
              slotProps={{ input: { 'data-testid': testId } as object }}
            />
          }
          label={label}
        />
      )}
    />
  );
}
