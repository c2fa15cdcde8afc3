import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function FullPageLoader() {
  return (
    <Box data-testid="page-loader" sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh', width: '100%' }}>
      <CircularProgress />
    </Box>
  );
}
