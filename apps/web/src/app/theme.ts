import { createTheme, type Theme } from '@mui/material/styles';

export type ThemeMode = 'light' | 'dark';

const PURPLE = { light: '#6B21A8', dark: '#C084FC' } as const;

export function createAppTheme(mode: ThemeMode): Theme {
  const light = mode === 'light';
  return createTheme({
    palette: {
      mode,
      primary: { main: PURPLE[mode], contrastText: light ? '#FFFFFF' : '#1E0B33' },
      secondary: { main: light ? '#9333EA' : '#E9D5FF' },
      background: light ? { default: '#F6F4FA', paper: '#FFFFFF' } : { default: '#121018', paper: '#1C1924' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiAppBar: { defaultProps: { elevation: 0 } },
      MuiPaper: { defaultProps: { elevation: 0 }, styleOverrides: { outlined: { borderRadius: 12 } } },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTableCell: { styleOverrides: { head: { fontWeight: 700 } } },
      // Phones: add/edit dialogs take the whole screen, their buttons at the bottom; small (xs)
      // confirmations stay a centred box.
      MuiDialog: {
        styleOverrides: {
          paper: ({ theme }) => ({
            [theme.breakpoints.down('sm')]: {
              '&:not(.MuiDialog-paperWidthXs)': {
                margin: 0,
                width: '100%',
                maxWidth: '100%',
                height: '100%',
                maxHeight: '100%',
                borderRadius: 0,
              },
            },
          }),
        },
      },
    },
  });
}
