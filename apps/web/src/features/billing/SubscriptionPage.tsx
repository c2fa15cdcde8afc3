import { formatDueDate } from '@balcao/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { PageContainer } from '../../components/PageContainer';
import { useCompany } from './billingApi';
import { trialDaysLeft } from './format';

function Info({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }} data-testid={`subscription-${id}`}>
        {children}
      </Typography>
    </Box>
  );
}

/** "Assine Agora!": how to subscribe (pay the open invoice in Financeiro) and where bills are sent. */
function ContactDialog({ open, email, onClose }: { open: boolean; email: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="subscription-contact-title"
      data-testid="subscription-contact-dialog"
    >
      <DialogTitle id="subscription-contact-title">{t('subscription.contact.title')}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText>{t('subscription.contact.text')}</DialogContentText>
        {email && (
          <DialogContentText sx={{ mt: 1.5 }} data-testid="subscription-contact-email">
            {t('subscription.contact.email', { email })}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="subscription-contact-close">
          {t('common.close')}
        </Button>
        <Button
          variant="contained"
          autoFocus
          onClick={() => navigate('/financeiro')}
          data-testid="subscription-contact-financeiro"
        >
          {t('subscription.contact.financeiro')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** /subscription (spec part 2 §2): the trial's days left, the billing e-mail and "Assine Agora!". */
export default function SubscriptionPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const company = useCompany(me.companyId);
  const [contactOpen, setContactOpen] = useState(false);
  // The session's copy of the company until (or unless) GET /companies/{id} answers.
  const trialExpiration = company.data ? company.data.trialExpiration : me.company.trialExpiration;
  const email = (company.data ? company.data.email : me.company.email) || null;
  const dueDate = company.data ? company.data.dueDate : me.company.dueDate;
  const planName = company.data?.plan?.name ?? me.company.plan?.name ?? null;
  const trialDays = trialDaysLeft(trialExpiration);

  return (
    <PageContainer title={t('pages.subscription')}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <Stack spacing={2.5}>
          {trialDays !== null && (
            <Alert severity="info" data-testid="subscription-trial">
              {t('subscription.trial', { count: trialDays })}
            </Alert>
          )}
          <Info id="email" label={t('subscription.email')}>
            {email ?? t('subscription.noEmail')}
          </Info>
          {planName && (
            <Info id="plan" label={t('subscription.plan')}>
              {planName}
            </Info>
          )}
          {dueDate && (
            <Info id="due-date" label={t('subscription.dueDate')}>
              {formatDueDate(dueDate)}
            </Info>
          )}
          <Box>
            <Button
              variant="contained"
              size="large"
              onClick={() => setContactOpen(true)}
              data-testid="subscription-subscribe"
            >
              {t('subscription.subscribe')}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <ContactDialog open={contactOpen} email={email} onClose={() => setContactOpen(false)} />
    </PageContainer>
  );
}
