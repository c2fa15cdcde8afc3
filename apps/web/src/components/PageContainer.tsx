import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface PageContainerProps {
  title: ReactNode;
  /** Buttons and fields shown at the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of every screen: a title row and the content filling the remaining height. */
export function PageContainer({ title, actions, children }: PageContainerProps) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, height: '100%', minHeight: 0, p: { xs: 1.5, sm: 3 } }}>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1.5 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700, flexGrow: 1 }} data-testid="page-title">
          {title}
        </Typography>
        {actions}
      </Stack>
      {children}
    </Box>
  );
}
