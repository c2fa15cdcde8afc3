import { CHECKOUT_COUNTRIES, formatDueDate, type Invoice, type Plan, type SubscriptionReply } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { type Control, Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { FormTextField } from '../../components/FormFields';
import { toastError } from '../../components/toastError';
import { translateValidation } from '../../i18n/validation';
import { formatBrl } from '../settings/admin/planForm';
import { billingApi, useOfferedPlans } from './billingApi';
import {
  type CheckoutFormValues,
  checkoutFormSchema,
  checkoutMessageKey,
  DATA_FIELDS,
  emptyCheckoutForm,
  subscriptionBody,
} from './checkoutForm';
import { PixPayment } from './PixPayment';

/** The three steps of spec part 2 §2, then the payment-code screen. */
const STEPS = ['data', 'customize', 'review'] as const;
const PIX_STEP = STEPS.length;
type StepName = (typeof STEPS)[number] | 'pix';

/** Two fields side by side from `sm`, one above the other on phones. */
function Row({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
      {children}
    </Stack>
  );
}

function DataStep({ control }: { control: Control<CheckoutFormValues> }) {
  const { t } = useTranslation();
  const errorText = (message: string | undefined) => {
    const key = checkoutMessageKey(message);
    return key ? t(key) : translateValidation(t, message);
  };
  const field = (name: (typeof DATA_FIELDS)[number], required: boolean, autoComplete: string) => (
    <FormTextField
      control={control}
      name={name}
      label={t(`billing.checkout.fields.${name}`)}
      required={required}
      autoComplete={autoComplete}
      autoFocus={name === 'firstName'}
      fullWidth
      errorText={errorText}
      testId={`checkout-${name}`}
    />
  );
  return (
    <Stack spacing={2}>
      <Row>
        {field('firstName', true, 'name')}
        {field('lastName', false, 'family-name')}
      </Row>
      {field('address2', true, 'street-address')}
      <Row>
        {field('city', true, 'address-level2')}
        {field('state', false, 'address-level1')}
      </Row>
      <Row>
        {field('zipcode', true, 'postal-code')}
        <Controller
          name="country"
          control={control}
          render={({ field: country, fieldState }) => (
            <TextField
              {...country}
              select
              required
              fullWidth
              label={t('billing.checkout.fields.country')}
              error={Boolean(fieldState.error)}
              helperText={errorText(fieldState.error?.message)}
              data-testid="checkout-country"
              slotProps={{ htmlInput: { 'data-testid': 'checkout-country-input' } }}
            >
              {CHECKOUT_COUNTRIES.map((code) => (
                <MenuItem key={code} value={code} data-testid={`checkout-country-${code}`}>
                  {t(`billing.checkout.countries.${code}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Row>
      <Controller
        name="useAddressForPaymentDetails"
        control={control}
        render={({ field: use }) => (
          <FormControlLabel
            control={
              <Checkbox
                checked={use.value}
                onChange={(event) => use.onChange(event.target.checked)}
                slotProps={{ input: { 'data-testid': 'checkout-use-address' } as object }}
              />
            }
            label={t('billing.checkout.fields.useAddressForPaymentDetails')}
          />
        )}
      />
    </Stack>
  );
}

function PlanLabel({ plan }: { plan: Plan }) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ py: 1 }}>
      <Typography sx={{ fontWeight: 600 }}>{plan.name}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('billing.checkout.planLimits', { users: plan.users, connections: plan.connections })}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('billing.checkout.perMonth', { price: formatBrl(plan.value, i18n.language) })}
      </Typography>
    </Box>
  );
}

function CustomizeStep({ control, plans }: { control: Control<CheckoutFormValues>; plans: Plan[] | undefined }) {
  const { t } = useTranslation();
  if (!plans) return <Skeleton variant="rounded" height={120} />;
  if (plans.length === 0) return <Alert severity="info">{t('billing.checkout.noPlans')}</Alert>;
  return (
    <Controller
      name="planId"
      control={control}
      render={({ field }) => (
        <RadioGroup
          aria-label={t('billing.checkout.plan')}
          value={field.value === null ? '' : String(field.value)}
          onChange={(event) => field.onChange(Number(event.target.value))}
          sx={{ gap: 1 }}
        >
          {plans.map((plan) => (
            <Paper
              key={plan.id}
              variant="outlined"
              sx={{ px: 1.5, borderColor: field.value === plan.id ? 'primary.main' : 'divider' }}
            >
              <FormControlLabel
                value={String(plan.id)}
                control={<Radio slotProps={{ input: { 'data-testid': `checkout-plan-${plan.id}` } as object }} />}
                label={<PlanLabel plan={plan} />}
                sx={{ width: '100%', m: 0 }}
              />
            </Paper>
          ))}
        </RadioGroup>
      )}
    />
  );
}

function ReviewItem({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }} data-testid={`checkout-review-${id}`}>
        {children}
      </Typography>
    </Box>
  );
}

function ReviewStep({
  control,
  plan,
  invoice,
}: {
  control: Control<CheckoutFormValues>;
  plan: Plan | null;
  invoice: Invoice;
}) {
  const { t, i18n } = useTranslation();
  const values = useWatch({ control });
  const name = [values.firstName, values.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const country = values.country ? t(`billing.checkout.countries.${values.country}`) : '';
  const address = [values.address2, values.city, values.state, values.zipcode, country]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
  return (
    <Stack spacing={1.5} component="dl" sx={{ m: 0 }} data-testid="checkout-review">
      <ReviewItem id="name" label={t('billing.checkout.review.name')}>
        {name}
      </ReviewItem>
      <ReviewItem id="address" label={t('billing.checkout.review.address')}>
        {address}
      </ReviewItem>
      {plan && (
        <ReviewItem id="plan" label={t('billing.checkout.review.plan')}>
          {`${plan.name} · ${t('billing.checkout.planLimits', { users: plan.users, connections: plan.connections })}`}
        </ReviewItem>
      )}
      <ReviewItem id="invoice" label={t('billing.checkout.review.invoice')}>
        {`#${invoice.id} · ${invoice.detail} · ${t('billing.checkout.review.due', { date: formatDueDate(invoice.dueDate) })}`}
      </ReviewItem>
      <ReviewItem id="total" label={t('billing.checkout.review.total')}>
        <Box component="span" sx={{ fontSize: '1.25rem', fontWeight: 700 }}>
          {formatBrl(invoice.value, i18n.language)}
        </Box>
      </ReviewItem>
    </Stack>
  );
}

interface CheckoutFlowProps {
  invoice: Invoice;
  paidDueDate: string | null;
  onClose: () => void;
}

function CheckoutFlow({ invoice, paidDueDate, onClose }: CheckoutFlowProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const [step, setStep] = useState(0);
  const [charge, setCharge] = useState<SubscriptionReply | null>(null);
  const plans = useOfferedPlans(true);
  const { control, handleSubmit, trigger } = useForm<CheckoutFormValues>({
    resolver: zodResolver(checkoutFormSchema),
    defaultValues: emptyCheckoutForm(me.company.plan?.id ?? null),
  });
  const planId = useWatch({ control, name: 'planId' });
  const plan = plans.data?.find((p) => p.id === planId) ?? null;
  const planChosen = plans.data !== undefined && (plans.data.length === 0 || plan !== null);

  const subscribe = useMutation({
    mutationFn: (values: CheckoutFormValues) => billingApi.subscribe(subscriptionBody(values, plan, invoice.id)),
    onSuccess: (reply) => {
      toast.success(t('billing.subscribed'));
      setCharge(reply);
      setStep(PIX_STEP);
    },
    onError: toastError,
  });

  const next = async () => {
    if (step === 0 && !(await trigger(DATA_FIELDS))) return;
    if (step === 1 && !planChosen) return;
    setStep((current) => current + 1);
  };
  // Enter in a field (or the main button) moves on; the last step submits.
  const onSubmit = (event: FormEvent) => {
    if (step === STEPS.length - 1) return void handleSubmit((values) => subscribe.mutate(values))(event);
    event.preventDefault();
    if (step < STEPS.length - 1) void next();
  };
  const stepName: StepName = step < PIX_STEP ? STEPS[step] : 'pix';

  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      data-testid="checkout-form"
      data-step={stepName}
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      <DialogContent dividers>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
          {STEPS.map((name, index) => (
            <Step key={name} completed={step > index}>
              <StepLabel data-testid={`checkout-step-${name}`}>{t(`billing.checkout.steps.${name}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {stepName === 'data' && <DataStep control={control} />}
        {stepName === 'customize' && <CustomizeStep control={control} plans={plans.data} />}
        {stepName === 'review' && <ReviewStep control={control} plan={plan} invoice={invoice} />}
        {stepName === 'pix' && charge && <PixPayment charge={charge} paidDueDate={paidDueDate} />}
      </DialogContent>
      <DialogActions>
        {stepName === 'data' && (
          <Button onClick={onClose} color="inherit" data-testid="checkout-cancel">
            {t('common.cancel')}
          </Button>
        )}
        {(stepName === 'customize' || stepName === 'review') && (
          <Button
            onClick={() => setStep((current) => current - 1)}
            color="inherit"
            disabled={subscribe.isPending}
            data-testid="checkout-back"
          >
            {t('billing.checkout.back')}
          </Button>
        )}
        {(stepName === 'data' || stepName === 'customize') && (
          <Button
            key="next"
            type="submit"
            variant="contained"
            disabled={stepName === 'customize' && !planChosen}
            data-testid="checkout-next"
          >
            {t('billing.checkout.next')}
          </Button>
        )}
        {stepName === 'review' && (
          <Button
            key="submit"
            type="submit"
            variant="contained"
            disabled={subscribe.isPending}
            startIcon={subscribe.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
            data-testid="checkout-submit"
          >
            {t('billing.checkout.submit')}
          </Button>
        )}
        {stepName === 'pix' && (
          <Button onClick={onClose} data-testid="checkout-close">
            {t('common.close')}
          </Button>
        )}
      </DialogActions>
    </Box>
  );
}

interface CheckoutDialogProps {
  /** The invoice being paid; null keeps the dialog closed. */
  invoice: Invoice | null;
  /** The company's new due date once the live CONCLUIDA of this invoice arrived. */
  paidDueDate: string | null;
  onClose: () => void;
}

/**
 * The checkout of an unpaid invoice (spec part 2 §2 and §4): Dados, Personalizar (plan picker),
 * Revisar, then the Pix screen. Back is allowed; the last step submits. Full screen on phones.
 */
export function CheckoutDialog({ invoice, paidDueDate, onClose }: CheckoutDialogProps) {
  const { t } = useTranslation();
  // The closing dialog keeps its content until it has faded out; a new invoice starts a new checkout.
  const [shown, setShown] = useState<Invoice | null>(invoice);
  if (invoice && invoice !== shown) setShown(invoice);
  return (
    <Dialog
      open={invoice !== null}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="checkout-title"
      data-testid="checkout-dialog"
      slotProps={{ transition: { onExited: () => setShown(null) } }}
    >
      <DialogTitle id="checkout-title">{t('billing.checkout.title', { id: shown?.id ?? '' })}</DialogTitle>
      {shown && <CheckoutFlow key={shown.id} invoice={shown} paidDueDate={paidDueDate} onClose={onClose} />}
    </Dialog>
  );
}
