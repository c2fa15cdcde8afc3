import Search from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** The `data-testid` of the input element. */
  testId: string;
  /** Accessible name of the input; "Pesquisar" by default. */
  ariaLabel?: string;
  autoFocus?: boolean;
}

/** The small search box of a list, with the magnifier at its start. Debouncing is the caller's. */
export function SearchField({ value, onChange, placeholder, testId, ariaLabel, autoFocus }: SearchFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      autoFocus={autoFocus}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        htmlInput: { 'data-testid': testId, 'aria-label': ariaLabel ?? t('common.search') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
