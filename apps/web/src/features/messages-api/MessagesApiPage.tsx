import {
  API_IDEMPOTENCY_TTL_HOURS,
  API_SEND_LIMIT_PER_MINUTE,
  type ApiMessageSendReply,
  apiMediaFileName,
} from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { backendUrl } from '../../api/config';
import { FormTextField } from '../../components/FormFields';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { apiSendUrl, sendTestMessage } from './messagesApiClient';

/** The test form (spec part 2 §5): token and number required, the number digits only; a body or a file. */
const testFormSchema = z
  .object({
    token: z.string().trim().min(1, 'messagesApi.test.required'),
    number: z.string().trim().min(1, 'messagesApi.test.required').regex(/^\d+$/, 'messagesApi.test.digitsOnly'),
    body: z.string(),
    file: z.instanceof(File).nullable(),
  })
  .refine((v) => v.body.trim() !== '' || v.file !== null, { path: ['body'], message: 'messagesApi.test.bodyOrFile' });
type TestFormValues = z.infer<typeof testFormSchema>;

const EXAMPLE_NUMBER = '5511999998888';

function CodeBlock({ children, testId }: { children: string; testId?: string }) {
  return (
    <Box
      component="pre"
      data-testid={testId}
      sx={{
        m: 0,
        p: 1.5,
        borderRadius: 1,
        bgcolor: 'action.hover',
        fontFamily: 'monospace',
        fontSize: { xs: 12, sm: 13 },
        overflowX: 'auto',
        whiteSpace: 'pre',
      }}
    >
      {children}
    </Box>
  );
}

function Section({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }} data-testid={testId}>
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {children}
      </Stack>
    </Paper>
  );
}

/** One labelled line of an endpoint's description: "Método: POST". */
function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
      <Box component="span" sx={{ fontWeight: 600 }}>
        {label}:
      </Box>{' '}
      {children}
    </Typography>
  );
}

const Code = ({ children }: { children: ReactNode }) => (
  <Box component="code" sx={{ fontFamily: 'monospace', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 }}>
    {children}
  </Box>
);

function TestForm() {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [lastSent, setLastSent] = useState<ApiMessageSendReply | null>(null);
  const { control, handleSubmit, setValue, watch } = useForm<TestFormValues>({
    resolver: zodResolver(testFormSchema),
    defaultValues: { token: '', number: '', body: '', file: null },
  });
  const file = watch('file');
  const send = useMutation({
    mutationFn: sendTestMessage,
    onSuccess: (reply) => {
      toast.success(t('messagesApi.test.success'));
      setLastSent(reply);
      setValue('body', '');
      setValue('file', null);
      if (fileInput.current) fileInput.current.value = '';
    },
    onError: toastError,
  });
  const errorText = (message: string | undefined) => (message ? t(message) : undefined);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit((values) => send.mutate(values))}
      data-testid="messages-api-test-form"
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            control={control}
            name="token"
            label={t('messagesApi.test.token')}
            autoComplete="off"
            fullWidth
            errorText={errorText}
            testId="messages-api-token"
          />
          <FormTextField
            control={control}
            name="number"
            label={t('messagesApi.test.number')}
            helperText={t('messagesApi.test.numberHelp')}
            placeholder={EXAMPLE_NUMBER}
            autoComplete="off"
            fullWidth
            errorText={errorText}
            htmlInput={{ inputMode: 'numeric' }}
            testId="messages-api-number"
          />
        </Stack>
        <FormTextField
          control={control}
          name="body"
          label={t('messagesApi.test.body')}
          multiline
          minRows={2}
          maxRows={8}
          fullWidth
          errorText={errorText}
          testId="messages-api-body"
        />
        <Controller
          name="file"
          control={control}
          render={({ field }) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <Button component="label" variant="outlined" startIcon={<AttachFile />}>
                {t('messagesApi.test.chooseFile')}
                <input
                  ref={fileInput}
                  type="file"
                  hidden
                  data-testid="messages-api-file"
                  onChange={(event) => field.onChange(event.target.files?.[0] ?? null)}
                />
              </Button>
              {field.value ? (
                <Chip
                  label={apiMediaFileName(field.value.name)}
                  onDelete={() => {
                    field.onChange(null);
                    if (fileInput.current) fileInput.current.value = '';
                  }}
                  deleteIcon={<Close aria-label={t('messagesApi.test.removeFile')} />}
                  sx={{ maxWidth: '100%' }}
                  data-testid="messages-api-file-name"
                />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t('messagesApi.test.noFile')}
                </Typography>
              )}
            </Stack>
          )}
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            startIcon={<Send />}
            disabled={send.isPending}
            fullWidth={false}
            data-testid="messages-api-submit"
          >
            {t(file ? 'messagesApi.test.sendMedia' : 'messagesApi.test.send')}
          </Button>
        </Box>
        {lastSent && (
          <Typography variant="body2" color="text.secondary" data-testid="messages-api-last-sent">
            {t('messagesApi.test.sentId', { id: lastSent.id, ticketId: lastSent.ticketId })}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

/** /messages-api (spec part 2 §2): how to send text and media with a connection's token, and a test form. */
export default function MessagesApiPage() {
  const { t } = useTranslation();
  const url = apiSendUrl();
  const host = backendUrl();
  const textBody = JSON.stringify({ number: EXAMPLE_NUMBER, body: t('messagesApi.exampleBody') }, null, 2);
  const textCurl = [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer <token>' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Idempotency-Key: pedido-1234' \\`,
    `  -d '${JSON.stringify({ number: EXAMPLE_NUMBER, body: t('messagesApi.exampleBody') })}'`,
  ].join('\n');
  const mediaCurl = [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer <token>' \\`,
    `  -F 'number=${EXAMPLE_NUMBER}' \\`,
    `  -F 'body=${t('messagesApi.exampleCaption')}' \\`,
    `  -F 'medias=@boleto.pdf' \\`,
    `  -F 'medias=@foto_do_produto.jpg'`,
  ].join('\n');
  const reply = JSON.stringify(
    {
      message: 'Mensagem enviada com sucesso',
      id: 4821,
      ids: [4821],
      ticketId: 312,
      contactId: 97,
      number: EXAMPLE_NUMBER,
      status: 'pending',
    },
    null,
    2,
  );

  return (
    <PageContainer title={t('messagesApi.title')}>
      <Stack spacing={2} sx={{ overflowY: 'auto', minHeight: 0, pb: 2 }} data-testid="messages-api-page">
        <Typography variant="body1">{t('messagesApi.intro')}</Typography>

        <Section title={t('messagesApi.before.title')} testId="messages-api-before">
          <Typography variant="body2">
            <Trans
              i18nKey="messagesApi.before.token"
              components={{ connections: <Link component={RouterLink} to="/connections" /> }}
            />
          </Typography>
          <Typography variant="body2">{t('messagesApi.before.number')}</Typography>
          <Detail label={t('messagesApi.fields.example')}>
            <Code>{EXAMPLE_NUMBER}</Code>
          </Detail>
        </Section>

        <Section title={t('messagesApi.text.title')} testId="messages-api-text">
          <Typography variant="body2">{t('messagesApi.text.intro')}</Typography>
          <Detail label={t('messagesApi.fields.endpoint')}>
            <Code>
              <span data-testid="messages-api-endpoint">{url}</span>
            </Code>
          </Detail>
          <Detail label={t('messagesApi.fields.method')}>
            <Code>POST</Code>
          </Detail>
          <Detail label={t('messagesApi.fields.headers')}>
            <Code>Authorization: Bearer &lt;token&gt;</Code>, <Code>Content-Type: application/json</Code>
          </Detail>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('messagesApi.fields.body')}
          </Typography>
          <CodeBlock testId="messages-api-text-body">{textBody}</CodeBlock>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('messagesApi.fields.curl')}
          </Typography>
          <CodeBlock testId="messages-api-text-curl">{textCurl}</CodeBlock>
        </Section>

        <Section title={t('messagesApi.media.title')} testId="messages-api-media">
          <Typography variant="body2">{t('messagesApi.media.intro')}</Typography>
          <Detail label={t('messagesApi.fields.endpoint')}>
            <Code>{url}</Code>
          </Detail>
          <Detail label={t('messagesApi.fields.method')}>
            <Code>POST</Code>
          </Detail>
          <Detail label={t('messagesApi.fields.headers')}>
            <Code>Authorization: Bearer &lt;token&gt;</Code>, <Code>Content-Type: multipart/form-data</Code>
          </Detail>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('messagesApi.fields.form')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            <li>
              <Typography variant="body2">
                <Code>number</Code> — {t('messagesApi.media.number')}
              </Typography>
            </li>
            <li>
              <Typography variant="body2">
                <Code>body</Code> — {t('messagesApi.media.body')}
              </Typography>
            </li>
            <li>
              <Typography variant="body2">
                <Code>medias</Code> — {t('messagesApi.media.medias')}
              </Typography>
            </li>
          </Box>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('messagesApi.fields.curl')}
          </Typography>
          <CodeBlock testId="messages-api-media-curl">{mediaCurl}</CodeBlock>
        </Section>

        <Section title={t('messagesApi.reply.title')} testId="messages-api-reply">
          <Typography variant="body2">{t('messagesApi.reply.intro')}</Typography>
          <CodeBlock>{reply}</CodeBlock>
          <Typography variant="body2">
            {t('messagesApi.reply.status')} <Code>GET {host}/api/messages/&#123;id&#125;</Code>
          </Typography>
          <Typography variant="body2">{t('messagesApi.reply.states')}</Typography>
          <Typography variant="body2">
            {t('messagesApi.reply.idempotency', { hours: API_IDEMPOTENCY_TTL_HOURS })}
          </Typography>
          <Typography variant="body2">{t('messagesApi.reply.limit', { limit: API_SEND_LIMIT_PER_MINUTE })}</Typography>
          <Typography variant="body2">{t('messagesApi.reply.errors')}</Typography>
          <Typography variant="body2">
            {t('messagesApi.reply.openapi')}{' '}
            <Link href={`${host}/api-docs`} target="_blank" rel="noopener">
              {`${host}/api-docs`}
            </Link>
          </Typography>
        </Section>

        <Section title={t('messagesApi.test.title')} testId="messages-api-test">
          <Typography variant="body2">{t('messagesApi.test.intro')}</Typography>
          <TestForm />
        </Section>
      </Stack>
    </PageContainer>
  );
}
