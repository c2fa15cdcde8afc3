import type { Message } from '@balcao/shared';
import AccessTime from '@mui/icons-material/AccessTime';
import Block from '@mui/icons-material/Block';
import ContactPhone from '@mui/icons-material/ContactPhoneOutlined';
import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LocationOn from '@mui/icons-material/LocationOnOutlined';
import PhoneMissed from '@mui/icons-material/PhoneMissed';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../tickets/format';
import { formatText, parseLocation, parseVcard, plainText } from './content';
import { MessageMedia } from './MessageMedia';

const MEDIA_WITH_FILE = new Set(['image', 'audio', 'video', 'application']);

/** Body text with WhatsApp emphasis, line breaks kept. */
export function FormattedText({ text }: { text: string }) {
  return (
    <Typography
      component="div"
      variant="body2"
      sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', '& code': { fontFamily: 'monospace' } }}
    >
      {formatText(text).map((part, i) => {
        const key = `${i}-${part.text.length}`;
        switch (part.style) {
          case 'bold':
            return <b key={key}>{part.text}</b>;
          case 'italic':
            return <i key={key}>{part.text}</i>;
          case 'strike':
            return <s key={key}>{part.text}</s>;
          case 'mono':
            return <code key={key}>{part.text}</code>;
          default:
            return <Fragment key={key}>{part.text}</Fragment>;
        }
      })}
    </Typography>
  );
}

/** Delivery state of one of our messages: clock, check, double check, blue double check, or failed. */
export function AckIcon({ message }: { message: Pick<Message, 'id' | 'ack' | 'sendStatus' | 'sendError'> }) {
  const { t, i18n } = useTranslation();
  // The server's reason (an ERR_* code), in the words of the error toasts.
  const reasonOf = (code: string) => (i18n.exists(`backendErrors.${code}`) ? t(`backendErrors.${code}`) : code);
  const failed = message.sendStatus === 'failed';
  const state = failed ? 'failed' : message.ack <= 0 ? '0' : message.ack === 1 ? '1' : message.ack === 2 ? '2' : '3';
  const sx = { fontSize: 16 };
  const icon = failed ? (
    <ErrorOutline color="error" sx={sx} />
  ) : message.ack <= 0 ? (
    <AccessTime sx={{ ...sx, color: 'text.secondary' }} />
  ) : message.ack === 1 ? (
    <Done sx={{ ...sx, color: 'text.secondary' }} />
  ) : message.ack === 2 ? (
    <DoneAll sx={{ ...sx, color: 'text.secondary' }} />
  ) : (
    <DoneAll sx={{ ...sx, color: '#34B7F1' }} />
  );
  return (
    <Tooltip
      title={
        failed && message.sendError
          ? `${t('messages.ack.failed')}: ${reasonOf(message.sendError)}`
          : t(`messages.ack.${state}`)
      }
    >
      <Box
        component="span"
        data-testid={`ack-${message.id}`}
        data-ack={state}
        sx={{ display: 'inline-flex', verticalAlign: 'middle' }}
      >
        {icon}
      </Box>
    </Tooltip>
  );
}

/** The quoted message shown inside a reply (and above the input while replying). */
export function QuotedMessage({
  quoted,
  onClick,
}: {
  quoted: Pick<Message, 'id' | 'body' | 'fromMe' | 'mediaType' | 'isDeleted' | 'contact'>;
  onClick?: () => void;
}) {
  const { t } = useTranslation();
  const text = quoted.isDeleted
    ? t('messages.deleted')
    : quoted.body && quoted.mediaType !== 'locationMessage' && quoted.mediaType !== 'vcard'
      ? plainText(quoted.body)
      : t(`messages.mediaTypes.${quoted.mediaType}`);
  return (
    <Box
      onClick={onClick}
      data-testid={`quoted-${quoted.id}`}
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? 'primary.main' : 'success.main',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        cursor: onClick ? 'pointer' : 'default',
        overflow: 'hidden',
      }}
    >
      <Typography variant="caption" sx={{ fontWeight: 700, color: quoted.fromMe ? 'primary.main' : 'success.main' }}>
        {quoted.fromMe ? t('messages.you') : (quoted.contact?.name ?? t('messages.contact'))}
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
      >
        {text}
      </Typography>
    </Box>
  );
}

function LocationContent({ body }: { body: string }) {
  const { t } = useTranslation();
  const { image, link, description } = parseLocation(body);
  const showImage = /^(data:image\/|https?:\/\/)/.test(image);
  const label = description || t('messages.mediaTypes.locationMessage');
  return (
    <Box
      data-testid="location"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5, overflow: 'hidden', minWidth: 180, maxWidth: 260 }}
    >
      {showImage ? (
        <Box component="img" src={image} alt="" sx={{ width: '100%', display: 'block' }} />
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1.5, bgcolor: 'action.hover' }}>
          <LocationOn color="action" fontSize="large" data-testid="location-icon" />
        </Box>
      )}
      <Stack spacing={0.25} sx={{ px: 1, py: 0.75 }}>
        <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
          {label}
        </Typography>
        {/* Only web links: the body comes from outside and must not carry a script URL. */}
        {/^https?:\/\//.test(link) && (
          <Link href={link} target="_blank" rel="noopener noreferrer" variant="body2">
            {t('messages.openLocation')}
          </Link>
        )}
      </Stack>
    </Box>
  );
}

function VcardContent({ body }: { body: string }) {
  const { t } = useTranslation();
  const { name, numbers } = parseVcard(body);
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 180 }} data-testid="vcard">
      <ContactPhone color="action" />
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {name || t('messages.mediaTypes.vcard')}
        </Typography>
        {numbers.map((n) => (
          <Typography key={n} variant="caption" component="div" color="text.secondary">
            {n}
          </Typography>
        ))}
      </Box>
    </Stack>
  );
}

function CallContent({ body }: { body: string }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="call-log">
      <PhoneMissed color="error" fontSize="small" />
      <Typography variant="body2">{body || t('messages.missedCall')}</Typography>
    </Stack>
  );
}

function MessageBody({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.isDeleted)
    return (
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
        <Block sx={{ fontSize: 16 }} />
        <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
          {t('messages.deleted')}
        </Typography>
      </Stack>
    );
  switch (message.mediaType) {
    case 'locationMessage':
      return <LocationContent body={message.body} />;
    case 'vcard':
      return <VcardContent body={message.body} />;
    case 'call_log':
      return <CallContent body={message.body} />;
    default:
      break;
  }
  const hasFile = MEDIA_WITH_FILE.has(message.mediaType);
  const caption = hasFile && message.body === message.mediaName ? '' : message.body;
  return (
    <>
      {hasFile && <MessageMedia message={message} />}
      {caption && <FormattedText text={caption} />}
      {message.transcript && (
        <Typography
          variant="caption"
          component="p"
          sx={{ fontStyle: 'italic', color: 'text.secondary', mt: 0.5 }}
          data-testid={`message-transcript-${message.id}`}
        >
          {t('prompts.transcript', { text: message.transcript })}
        </Typography>
      )}
    </>
  );
}

interface MessageItemProps {
  message: Message;
  /** Shows the sender's name (groups). */
  showSender: boolean;
  readOnly: boolean;
  highlighted: boolean;
  onReply: (message: Message) => void;
  onDelete: (message: Message) => void;
  /** Sends a failed message again. */
  onRetry: (message: Message) => void;
  onQuotedClick: (id: number) => void;
}

/** One message bubble: ours at the right, the contact's at the left. */
export function MessageItem({
  message,
  showSender,
  readOnly,
  highlighted,
  onReply,
  onDelete,
  onRetry,
  onQuotedClick,
}: MessageItemProps) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const mine = message.fromMe;
  const canDelete = mine && !message.isDeleted;

  return (
    <Box
      data-testid={`message-${message.id}`}
      data-message-id={message.id}
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', px: 1.5, py: 0.25 }}
    >
      <Box
        sx={(theme) => ({
          position: 'relative',
          maxWidth: { xs: '85%', md: '70%' },
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          borderRadius: 2,
          borderTopRightRadius: mine ? 4 : undefined,
          borderTopLeftRadius: mine ? undefined : 4,
          boxShadow: 1,
          transition: 'background-color .6s',
          bgcolor: highlighted
            ? 'warning.light'
            : mine
              ? theme.palette.mode === 'light'
                ? '#E9DDF7'
                : '#3B2559'
              : 'background.paper',
          '&:hover .message-menu': { opacity: 1 },
        })}
      >
        {!readOnly && (
          <IconButton
            size="small"
            className="message-menu"
            aria-label={t('messages.options')}
            onClick={(event) => setMenu(event.currentTarget)}
            data-testid={`message-menu-${message.id}`}
            sx={{ position: 'absolute', top: 0, right: 0, opacity: 0, p: 0.25, bgcolor: 'inherit' }}
          >
            <ExpandMore fontSize="small" />
          </IconButton>
        )}
        {showSender && !mine && message.contact && (
          <Typography variant="caption" sx={{ fontWeight: 700, color: 'primary.main', display: 'block' }}>
            {message.contact.name}
          </Typography>
        )}
        {message.quotedMsg && (
          <QuotedMessage quoted={message.quotedMsg} onClick={() => onQuotedClick(message.quotedMsg?.id ?? 0)} />
        )}
        <Box sx={{ pr: readOnly ? 0 : 2 }}>
          <MessageBody message={message} />
        </Box>
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', mt: 0.25 }}>
          {message.isEdited && !message.isDeleted && (
            <Typography variant="caption" color="text.secondary" sx={{ fontStyle: 'italic' }}>
              {t('messages.edited')}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11 }}>
            {formatTime(message.createdAt)}
          </Typography>
          {mine && <AckIcon message={message} />}
        </Stack>
        {mine && message.sendStatus === 'failed' && !message.isDeleted && !readOnly && (
          <Link
            component="button"
            variant="caption"
            color="error"
            onClick={() => onRetry(message)}
            data-testid={`message-retry-${message.id}`}
            sx={{ display: 'block', ml: 'auto' }}
          >
            {t('messages.retry')}
          </Link>
        )}
      </Box>
      <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem
          data-testid="message-reply"
          onClick={() => {
            setMenu(null);
            onReply(message);
          }}
          disabled={message.isDeleted}
        >
          {t('messages.reply')}
        </MenuItem>
        {canDelete && (
          <MenuItem
            data-testid="message-delete"
            onClick={() => {
              setMenu(null);
              onDelete(message);
            }}
          >
            {t('messages.delete')}
          </MenuItem>
        )}
      </Menu>
    </Box>
  );
}
