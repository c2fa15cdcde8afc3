import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { shownValue } from '../../components/RecordSelect';
import { useWhatsappOptions } from './ticketsApi';

interface ConnectionSelectProps {
  /** Loads the connections while true (the dialog is open). */
  enabled: boolean;
  value: number | '';
  onChange: (whatsappId: number | '') => void;
  label: string;
  /** The label of the first choice, "no connection chosen" (the default or the ticket's own). */
  emptyLabel: string;
  testId: string;
}

/** Picks the connection a ticket goes through, or leaves it to the server. */
export function ConnectionSelect({ enabled, value, onChange, label, emptyLabel, testId }: ConnectionSelectProps) {
  const whatsapps = useWhatsappOptions(enabled);
  return (
    <TextField
      select
      label={label}
      value={shownValue(value, whatsapps.data)}
      onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))}
      data-testid={testId}
    >
      <MenuItem value="">
        <em>{emptyLabel}</em>
      </MenuItem>
      {(whatsapps.data ?? []).map((w) => (
        <MenuItem key={w.id} value={w.id}>
          {w.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
