import { STORAGE } from '@balcao/shared';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { createAppTheme, type ThemeMode } from './theme';

interface ColorMode {
  mode: ThemeMode;
  toggleMode: () => void;
}

const ColorModeContext = createContext<ColorMode | null>(null);

function storedMode(): ThemeMode {
  return localStorage.getItem(STORAGE.preferredTheme) === 'dark' ? 'dark' : 'light';
}

/** MUI theme with the light/dark choice kept in browser storage under `preferredTheme`. */
export function ColorModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(storedMode);
  const toggleMode = useCallback(() => {
    const next = mode === 'light' ? 'dark' : 'light';
    localStorage.setItem(STORAGE.preferredTheme, next);
    setMode(next);
  }, [mode]);
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const value = useMemo(() => ({ mode, toggleMode }), [mode, toggleMode]);

  return (
    <ColorModeContext value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ColorModeContext>
  );
}

export function useColorMode(): ColorMode {
  const value = useContext(ColorModeContext);
  if (!value) throw new Error('useColorMode outside ColorModeProvider');
  return value;
}
