import { msg } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { z } from 'zod';
import { useAuth } from '../../app/AuthContext';
import { FormPasswordField, FormTextField } from '../../components/FormFields';
import { toastError } from '../../components/toastError';

const loginForm = z.object({
  email: z.string().trim().min(1, msg.required),
  password: z.string().min(1, msg.required),
});
type LoginForm = z.infer<typeof loginForm>;

/** /login: e-mail and password, links to the terms and privacy pages. */
export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const { control, handleSubmit, formState } = useForm<LoginForm>({
    resolver: zodResolver(loginForm),
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async ({ email, password }) => {
    try {
      await login(email, password);
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Box
      sx={{
        minHeight: '100dvh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        background: (theme) =>
          `linear-gradient(135deg, ${theme.palette.primary.main} 0%, ${theme.palette.secondary.main} 100%)`,
      }}
    >
      <Paper elevation={8} sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 }, borderRadius: 4 }}>
        <Stack spacing={1} sx={{ alignItems: 'center', mb: 3 }}>
          <Box component="img" src="/favicon.svg" alt="" sx={{ width: 56, height: 56 }} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 800, color: 'primary.main' }}>
            Balcão
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            {t('login.subtitle')}
          </Typography>
        </Stack>
        <Stack component="form" spacing={2} noValidate onSubmit={submit}>
          <FormTextField
            control={control}
            name="email"
            label={t('login.email')}
            type="email"
            autoComplete="email"
            autoFocus
            required
            fullWidth
            testId="login-email"
          />
          <FormPasswordField
            control={control}
            name="password"
            label={t('login.password')}
            toggleLabel={t('login.showPassword')}
            autoComplete="current-password"
            required
            fullWidth
            testId="login-password"
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={formState.isSubmitting}
            startIcon={formState.isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Stack>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center', mt: 3 }}>
          <Link component={RouterLink} to="/term" variant="body2" data-testid="login-terms">
            {t('login.terms')}
          </Link>
          <Link component={RouterLink} to="/privacy" variant="body2" data-testid="login-privacy">
            {t('login.privacy')}
          </Link>
        </Stack>
      </Paper>
    </Box>
  );
}
