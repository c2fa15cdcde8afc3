import ConstructionIcon from '@mui/icons-material/Construction';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageContainer } from './PageContainer';

/** Placeholder of a screen that is not built yet, titled with the page's name. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PageContainer title={t(titleKey)}>
      <Paper
        variant="outlined"
        data-testid="coming-soon"
        sx={{ p: 6, display: 'grid', placeItems: 'center', gap: 1, textAlign: 'center' }}
      >
        <ConstructionIcon color="primary" sx={{ fontSize: 56 }} />
        <Typography variant="h6">{t('common.comingSoon')}</Typography>
        <Typography color="text.secondary">{t('common.comingSoonText')}</Typography>
      </Paper>
    </PageContainer>
  );
}
