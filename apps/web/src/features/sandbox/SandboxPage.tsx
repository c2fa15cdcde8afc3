import type { Whatsapp } from '@balcao/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import PlayArrow from '@mui/icons-material/PlayArrow';
import QrCode2 from '@mui/icons-material/QrCode2';
import Reply from '@mui/icons-material/Reply';
import Schedule from '@mui/icons-material/Schedule';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { connectionsApi, useWhatsapps } from '../connections/connectionsApi';
import { useConnectionsRealtime } from '../connections/useConnectionsRealtime';
import {
  OUTBOUND_POLL_MS,
  readFileAsBase64,
  SANDBOX_NUMBER,
  type SandboxMedia,
  type SandboxOutboundItem,
  sandboxApi,
} from './sandboxApi';

/** A message the person playing the contact sent, kept in the page (the API does not list them). */
interface SentMessage {
  providerId: string;
  body: string;
  mediaName: string | null;
  quotedProviderId: string | null;
  createdAt: string;
}

type ChatEntry = { side: 'contact'; message: SentMessage } | { side: 'company'; message: SandboxOutboundItem };

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ''
    : `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function AckIcon({ ack }: { ack: number }) {
  if (ack <= 0) return <Schedule sx={{ fontSize: 14 }} color="disabled" />;
  if (ack === 1) return <Done sx={{ fontSize: 14 }} color="disabled" />;
  return <DoneAll sx={{ fontSize: 14, color: ack >= 3 ? 'info.main' : 'text.disabled' }} />;
}

/** The media of a company message, fetched with the token (media URLs are not public). */
function OutboundMedia({ media }: { media: NonNullable<SandboxOutboundItem['media']> }) {
  const { t } = useTranslation();
  const isImage = media.mimetype.startsWith('image/');
  const blob = useQuery({
    queryKey: ['sandbox', 'media', media.url],
    queryFn: () => http.getBlob(media.url),
    enabled: isImage,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob.data || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(blob.data);
    setObjectUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [blob.data]);

  const open = async () => {
    try {
      const file = await http.getBlob(media.url);
      window.open(URL.createObjectURL(file), '_blank', 'noopener');
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Stack spacing={0.5}>
      {objectUrl && (
        <Box component="img" src={objectUrl} alt={media.fileName} sx={{ maxWidth: 220, borderRadius: 1 }} />
      )}
      <Link component="button" type="button" variant="caption" onClick={() => void open()} sx={{ textAlign: 'left' }}>
        <AttachFile sx={{ fontSize: 14, verticalAlign: 'middle' }} /> {media.fileName || t('sandbox.file')}
      </Link>
    </Stack>
  );
}

function Bubble({
  entry,
  quotedText,
  onAck,
  onReply,
  acking,
}: {
  entry: ChatEntry;
  quotedText: string | null;
  onAck: (providerId: string, ack: 2 | 3) => void;
  onReply: (item: SandboxOutboundItem) => void;
  acking: boolean;
}) {
  const { t } = useTranslation();
  const mine = entry.side === 'contact';
  const m = entry.message;
  return (
    <Stack sx={{ alignItems: mine ? 'flex-end' : 'flex-start' }}>
      <Paper
        elevation={0}
        data-testid={mine ? `sandbox-in-${entry.message.providerId}` : `sandbox-out-${entry.message.id}`}
        data-side={entry.side}
        sx={{
          px: 1.25,
          py: 0.75,
          maxWidth: '82%',
          borderRadius: 2,
          bgcolor: mine ? '#d9fdd3' : '#ffffff',
          color: '#111b21',
          boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
        }}
      >
        {quotedText !== null && (
          <Box
            sx={{ borderLeft: 3, borderColor: 'primary.main', bgcolor: 'rgba(0,0,0,0.05)', px: 1, py: 0.5, mb: 0.5 }}
          >
            <Typography variant="caption" sx={{ display: 'block', whiteSpace: 'pre-wrap' }}>
              {quotedText}
            </Typography>
          </Box>
        )}
        {entry.side === 'company' && entry.message.deleted ? (
          <Typography variant="body2" sx={{ fontStyle: 'italic', color: '#667781' }}>
            {t('sandbox.deleted')}
          </Typography>
        ) : (
          <>
            {entry.side === 'company' && entry.message.media && <OutboundMedia media={entry.message.media} />}
            {entry.side === 'contact' && entry.message.mediaName && (
              <Typography variant="caption" sx={{ display: 'block' }}>
                <AttachFile sx={{ fontSize: 14, verticalAlign: 'middle' }} /> {entry.message.mediaName}
              </Typography>
            )}
            {m.body && (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.body}
              </Typography>
            )}
          </>
        )}
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          <Typography variant="caption" sx={{ color: '#667781', fontSize: 11 }}>
            {time(m.createdAt)}
          </Typography>
          {entry.side === 'company' && <AckIcon ack={entry.message.ack} />}
        </Stack>
      </Paper>
      {entry.side === 'company' && !entry.message.deleted && (
        <Stack direction="row" spacing={0.5} sx={{ mt: 0.25 }}>
          <Button
            size="small"
            sx={{ minWidth: 0, px: 0.75, fontSize: 11 }}
            disabled={acking || entry.message.ack >= 2}
            onClick={() => onAck(entry.message.providerId, 2)}
            data-testid={`sandbox-ack-received-${entry.message.id}`}
          >
            {t('sandbox.markReceived')}
          </Button>
          <Button
            size="small"
            sx={{ minWidth: 0, px: 0.75, fontSize: 11 }}
            disabled={acking || entry.message.ack >= 3}
            onClick={() => onAck(entry.message.providerId, 3)}
            data-testid={`sandbox-ack-read-${entry.message.id}`}
          >
            {t('sandbox.markRead')}
          </Button>
          <Tooltip title={t('sandbox.reply')}>
            <IconButton
              size="small"
              onClick={() => onReply(entry.message)}
              data-testid={`sandbox-quote-${entry.message.id}`}
            >
              <Reply sx={{ fontSize: 16 }} />
            </IconButton>
          </Tooltip>
        </Stack>
      )}
    </Stack>
  );
}

function ConnectionControls({ whatsapp }: { whatsapp: Whatsapp }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.whatsapps });
  const start = useMutation({
    mutationFn: () => connectionsApi.startSession(whatsapp.id),
    onSuccess: refresh,
    onError: toastError,
  });
  const scan = useMutation({
    mutationFn: () => sandboxApi.scan(whatsapp.id),
    onSuccess: refresh,
    onError: toastError,
  });
  const connected = whatsapp.status === 'CONNECTED';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Chip
        size="small"
        color={connected ? 'success' : 'warning'}
        label={t(`connections.statuses.${whatsapp.status}`)}
        data-testid="sandbox-connection-status"
        data-status={whatsapp.status}
      />
      {!connected && (
        <>
          <Button
            size="small"
            variant="outlined"
            startIcon={<PlayArrow />}
            disabled={start.isPending || whatsapp.status === 'OPENING' || whatsapp.status === 'qrcode'}
            onClick={() => start.mutate()}
            data-testid="sandbox-start"
          >
            {t('sandbox.start')}
          </Button>
          <Button
            size="small"
            variant="contained"
            startIcon={<QrCode2 />}
            disabled={scan.isPending}
            onClick={() => scan.mutate()}
            data-testid="sandbox-scan"
          >
            {t('sandbox.scan')}
          </Button>
        </>
      )}
    </Stack>
  );
}

/** /sandbox (admins): play a contact's phone on a sandbox connection, to try the service end to end. */
export default function SandboxPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const whatsapps = useWhatsapps();
  useConnectionsRealtime();
  const sandboxes = useMemo(() => (whatsapps.data ?? []).filter((w) => w.provider === 'sandbox'), [whatsapps.data]);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const whatsapp = sandboxes.find((w) => w.id === chosenId) ?? sandboxes[0] ?? null;
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [body, setBody] = useState('');
  const [media, setMedia] = useState<SandboxMedia | null>(null);
  const [quoted, setQuoted] = useState<SandboxOutboundItem | null>(null);
  const [sent, setSent] = useState<Record<string, SentMessage[]>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const chatEnd = useRef<HTMLDivElement>(null);
  const validNumber = SANDBOX_NUMBER.test(number);
  const conversation = whatsapp && validNumber ? `${whatsapp.id}:${number}` : null;

  const outbound = useQuery({
    queryKey: queryKeys.sandboxOutbound(whatsapp?.id ?? 0, number),
    queryFn: () => sandboxApi.outbound(whatsapp?.id ?? 0, number),
    enabled: conversation !== null,
    refetchInterval: OUTBOUND_POLL_MS,
  });

  const send = useMutation({
    mutationFn: async () => {
      if (!whatsapp) throw new Error('no connection');
      const reply = await sandboxApi.inbound(whatsapp.id, {
        number,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(body ? { body } : {}),
        ...(media ? { media } : {}),
        ...(quoted ? { quotedProviderId: quoted.providerId } : {}),
      });
      return { providerId: reply.providerId, key: `${whatsapp.id}:${number}` };
    },
    onSuccess: ({ providerId, key }) => {
      const message: SentMessage = {
        providerId,
        body,
        mediaName: media?.fileName ?? null,
        quotedProviderId: quoted?.providerId ?? null,
        createdAt: new Date().toISOString(),
      };
      setSent((all) => ({ ...all, [key]: [...(all[key] ?? []), message] }));
      // An automatic reply (greeting, chatbot) may already be there: do not wait for the next poll.
      void queryClient.invalidateQueries({ queryKey: ['sandbox', 'outbound'] });
      setBody('');
      setMedia(null);
      setQuoted(null);
    },
    onError: toastError,
  });

  const ack = useMutation({
    mutationFn: ({ providerId, value }: { providerId: string; value: 2 | 3 }) =>
      sandboxApi.ack(whatsapp?.id ?? 0, providerId, value),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sandboxOutbound(whatsapp?.id ?? 0, number) }),
    onError: toastError,
  });

  const entries = useMemo<ChatEntry[]>(() => {
    const mine = (conversation ? sent[conversation] : undefined) ?? [];
    const theirs = conversation ? (outbound.data ?? []) : [];
    return [
      ...mine.map((message): ChatEntry => ({ side: 'contact', message })),
      ...theirs.map((message): ChatEntry => ({ side: 'company', message })),
    ].sort((a, b) => a.message.createdAt.localeCompare(b.message.createdAt));
  }, [conversation, sent, outbound.data]);

  const lastKey = entries.length;
  useEffect(() => {
    if (lastKey > 0) chatEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [lastKey]);

  const quotedTextOf = (providerId: string | null): string | null => {
    if (!providerId) return null;
    const own = conversation ? sent[conversation]?.find((m) => m.providerId === providerId) : undefined;
    if (own) return own.body || own.mediaName || '';
    const company = outbound.data?.find((m) => m.providerId === providerId);
    return company ? company.body || company.media?.fileName || '' : null;
  };

  const canSend = whatsapp !== null && validNumber && (body.trim() !== '' || media !== null) && !send.isPending;

  if (!whatsapps.isPending && sandboxes.length === 0) {
    return (
      <PageContainer title={t('pages.sandbox')}>
        <Alert severity="info" data-testid="sandbox-empty">
          {t('sandbox.empty')}{' '}
          <Link component={RouterLink} to="/connections">
            {t('pages.connections')}
          </Link>
        </Alert>
      </PageContainer>
    );
  }

  return (
    <PageContainer title={t('pages.sandbox')}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ flex: 1, minHeight: 0 }}>
        <Stack spacing={2} sx={{ width: { md: 320 }, flexShrink: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {t('sandbox.intro')}
          </Typography>
          <TextField
            select
            label={t('sandbox.connection')}
            value={whatsapp?.id ?? ''}
            onChange={(event) => setChosenId(Number(event.target.value))}
            slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'sandbox-connection-select' } }}
          >
            {sandboxes.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </TextField>
          {whatsapp && <ConnectionControls whatsapp={whatsapp} />}
          <TextField
            label={t('sandbox.number')}
            value={number}
            onChange={(event) => setNumber(event.target.value.replace(/\D/g, '').slice(0, 20))}
            error={number !== '' && !validNumber}
            helperText={number !== '' && !validNumber ? t('sandbox.numberInvalid') : t('sandbox.numberHelp')}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'sandbox-number' } }}
          />
          <TextField
            label={t('sandbox.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'sandbox-name' } }}
          />
        </Stack>
        <Paper
          variant="outlined"
          sx={{
            flex: 1,
            maxWidth: 480,
            minHeight: 420,
            display: 'flex',
            flexDirection: 'column',
            borderRadius: 4,
            overflow: 'hidden',
          }}
        >
          <Stack
            direction="row"
            spacing={1.5}
            sx={{ alignItems: 'center', px: 2, py: 1.25, bgcolor: '#008069', color: '#fff' }}
          >
            <Avatar sx={{ width: 34, height: 34 }}>{(whatsapp?.name ?? '?').charAt(0).toUpperCase()}</Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle2" noWrap>
                {whatsapp?.name ?? ''}
              </Typography>
              <Typography variant="caption" sx={{ opacity: 0.85 }} noWrap>
                {validNumber ? t('sandbox.phoneOf', { number, name: name.trim() || number }) : t('sandbox.pickNumber')}
              </Typography>
            </Box>
          </Stack>
          <Stack
            spacing={1}
            data-testid="sandbox-outbound-list"
            sx={{ flex: 1, overflowY: 'auto', p: 1.5, bgcolor: '#efeae2', minHeight: 260 }}
          >
            {entries.length === 0 && (
              <Typography variant="caption" sx={{ color: '#667781', textAlign: 'center', mt: 4 }}>
                {t(validNumber ? 'sandbox.noMessages' : 'sandbox.pickNumber')}
              </Typography>
            )}
            {entries.map((entry) => (
              <Bubble
                key={entry.side === 'contact' ? `in-${entry.message.providerId}` : `out-${entry.message.id}`}
                entry={entry}
                quotedText={quotedTextOf(entry.message.quotedProviderId)}
                acking={ack.isPending}
                onAck={(providerId, value) => ack.mutate({ providerId, value })}
                onReply={setQuoted}
              />
            ))}
            <div ref={chatEnd} />
          </Stack>
          {(quoted || media) && (
            <Stack spacing={0.5} sx={{ px: 1.5, pt: 1, bgcolor: '#f0f2f5' }}>
              {quoted && (
                <Chip
                  size="small"
                  icon={<Reply />}
                  label={quoted.body || quoted.media?.fileName || ''}
                  onDelete={() => setQuoted(null)}
                  data-testid="sandbox-quoted"
                  sx={{ justifyContent: 'space-between', maxWidth: '100%' }}
                />
              )}
              {media && (
                <Chip
                  size="small"
                  icon={<AttachFile />}
                  label={media.fileName}
                  onDelete={() => setMedia(null)}
                  deleteIcon={<Close />}
                  data-testid="sandbox-attachment"
                  sx={{ maxWidth: '100%' }}
                />
              )}
            </Stack>
          )}
          <Box
            component="form"
            onSubmit={(event) => {
              event.preventDefault();
              if (canSend) send.mutate();
            }}
            sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, p: 1, bgcolor: '#f0f2f5' }}
          >
            <input
              ref={fileInput}
              type="file"
              hidden
              data-testid="sandbox-attach"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) readFileAsBase64(file).then(setMedia, toastError);
              }}
            />
            <Tooltip title={t('sandbox.attach')}>
              <IconButton onClick={() => fileInput.current?.click()} aria-label={t('sandbox.attach')}>
                <AttachFile />
              </IconButton>
            </Tooltip>
            <TextField
              value={body}
              onChange={(event) => setBody(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  if (canSend) send.mutate();
                }
              }}
              placeholder={t('sandbox.bodyPlaceholder')}
              multiline
              maxRows={5}
              size="small"
              fullWidth
              sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
              slotProps={{ htmlInput: { 'data-testid': 'sandbox-body' } }}
            />
            <IconButton
              type="submit"
              color="primary"
              disabled={!canSend}
              aria-label={t('sandbox.send')}
              data-testid="sandbox-send"
            >
              <Send />
            </IconButton>
          </Box>
        </Paper>
      </Stack>
    </PageContainer>
  );
}
