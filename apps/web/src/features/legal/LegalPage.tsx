import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const PARAGRAPHS = ['p1', 'p2', 'p3'] as const;

/** The public /term and /privacy pages. */
export function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default', py: { xs: 3, sm: 6 }, px: 2 }}>
      <Paper variant="outlined" sx={{ maxWidth: 760, mx: 'auto', p: { xs: 3, sm: 5 } }} data-testid={`legal-${kind}`}>
        <Stack spacing={2}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            {t(`pages.${kind}`)}
          </Typography>
          {PARAGRAPHS.map((p) => (
            <Typography key={p} color="text.secondary">
              {t(`legal.${kind}.${p}`)}
            </Typography>
          ))}
          <Box>
            <Button startIcon={<ArrowBack />} component={Link} to="/login">
              {t('legal.back')}
            </Button>
          </Box>
        </Stack>
      </Paper>
    </Box>
  );
}
