import type { Readable } from 'node:stream';
import { locationBody, mediaTypeOf } from '@balcao/shared';
import {
  getContentType,
  isJidBroadcast,
  isJidNewsletter,
  isJidStatusBroadcast,
  normalizeMessageContent,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { InboundFile, InboundMessage, Revision } from '../channel.js';
import { contactOf, isGroupJid, participantOf, userOf } from './identity.js';

type Base = { companyId: number; whatsappId: number };

/** What one Baileys message means for the pipeline. */
export type Mapped =
  | { kind: 'message'; message: InboundMessage }
  | { kind: 'revision'; revision: Revision }
  | { kind: 'ignored'; reason: string };

export interface MapDeps {
  /** The bytes of a media message (Baileys' downloadMediaMessage, re-uploading expired links). */
  download(msg: WAMessage): Promise<Buffer | Readable>;
  /** The subject of a group, from a bounded cache. */
  groupName(jid: string): Promise<string | undefined>;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

const MEDIA = ['imageMessage', 'videoMessage', 'audioMessage', 'documentMessage', 'stickerMessage'] as const;
type MediaKey = (typeof MEDIA)[number];

/** The text of a message, whatever kind of text message it is (also an edit's new content). */
export function textOf(m: proto.IMessage | null | undefined): string | undefined {
  if (!m) return undefined;
  return (
    m.conversation ??
    m.extendedTextMessage?.text ??
    m.imageMessage?.caption ??
    m.videoMessage?.caption ??
    m.documentMessage?.caption ??
    m.buttonsResponseMessage?.selectedDisplayText ??
    m.templateButtonReplyMessage?.selectedDisplayText ??
    m.listResponseMessage?.title ??
    undefined
  );
}

/**
 * The spec's `image|link|description`, the same body as the Cloud API. The phone's thumbnail is
 * left out: inlined, it would ride along in every ticket list as the last message.
 */
function bodyOfLocation(l: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage): string {
  const named = l as proto.Message.ILocationMessage;
  return locationBody({
    latitude: l.degreesLatitude,
    longitude: l.degreesLongitude,
    name: named.name,
    address: named.address,
  });
}

function contextOf(m: proto.IMessage, type: keyof proto.IMessage): proto.IContextInfo | undefined {
  const inner = m[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  return (inner && typeof inner === 'object' && inner.contextInfo) || undefined;
}

const timestampOf = (t: WAMessage['messageTimestamp']) => (t ? new Date(Number(t) * 1000) : undefined);

/**
 * One Baileys message in the internal shape. Reactions, status updates, broadcasts, channels and
 * protocol messages other than delete/edit are ignored; media is downloaded by the pipeline.
 */
export async function mapMessage(msg: WAMessage, base: Base, deps: MapDeps): Promise<Mapped> {
  const jid = msg.key.remoteJid ?? '';
  const providerId = msg.key.id;
  if (!providerId || !jid) return { kind: 'ignored', reason: 'no id' };
  if (isJidStatusBroadcast(jid) || isJidBroadcast(jid) || isJidNewsletter(jid))
    return { kind: 'ignored', reason: 'broadcast' };
  const content = normalizeMessageContent(msg.message);
  if (!content) return { kind: 'ignored', reason: 'empty' };

  const protocol = content.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (target && protocol.type === proto.Message.ProtocolMessage.Type.REVOKE)
      return { kind: 'revision', revision: { ...base, providerId: target, kind: 'delete' } };
    if (target && protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT)
      return {
        kind: 'revision',
        revision: { ...base, providerId: target, kind: 'edit', body: textOf(protocol.editedMessage) ?? '' },
      };
    return { kind: 'ignored', reason: 'protocol' };
  }
  // Reactions are not messages of the conversation in this product.
  if (content.reactionMessage) return { kind: 'ignored', reason: 'reaction' };

  const isGroup = isGroupJid(jid);
  const who = isGroup ? undefined : contactOf(msg.key);
  const number = isGroup ? userOf(jid) : who?.number;
  if (!number) return { kind: 'ignored', reason: 'no contact' };
  const type = getContentType(content);
  if (!type) return { kind: 'ignored', reason: 'no content' };
  const fromMe = Boolean(msg.key.fromMe);
  const common = {
    ...base,
    providerId,
    number,
    ...(who?.lid ? { lid: who.lid } : {}),
    pushName: fromMe || isGroup ? undefined : (msg.pushName ?? undefined),
    fromMe,
    quotedProviderId: contextOf(content, type)?.stanzaId ?? undefined,
    timestamp: timestampOf(msg.messageTimestamp),
    ...(isGroup
      ? {
          isGroup: true,
          groupName: await deps.groupName(jid),
          participant: fromMe ? undefined : participantOf(msg.key),
          participantName: fromMe ? undefined : (msg.pushName ?? undefined),
        }
      : {}),
  };

  if ((MEDIA as readonly string[]).includes(type)) {
    const media = content[type as MediaKey] as proto.Message.IDocumentMessage & proto.Message.IAudioMessage;
    const mimetype = (media.mimetype ?? 'application/octet-stream').split(';')[0].trim();
    const kind = type.replace('Message', '');
    // Downloaded by the pipeline, straight to storage, only if the message is not a redelivery.
    const file: InboundFile = {
      download: () => deps.download(msg),
      mimetype,
      fileName: media.fileName || `${kind}.${EXTENSIONS[mimetype] ?? 'bin'}`,
    };
    return {
      kind: 'message',
      message: {
        ...common,
        body: media.caption ?? '',
        mediaType: type === 'stickerMessage' ? 'image' : mediaTypeOf(mimetype),
        media: file,
      },
    };
  }
  const location = content.locationMessage ?? content.liveLocationMessage;
  if (location)
    return { kind: 'message', message: { ...common, body: bodyOfLocation(location), mediaType: 'locationMessage' } };
  if (content.contactMessage)
    return { kind: 'message', message: { ...common, body: content.contactMessage.vcard ?? '', mediaType: 'vcard' } };
  if (content.contactsArrayMessage) {
    const body = (content.contactsArrayMessage.contacts ?? []).map((c) => c.vcard ?? '').join('\n');
    return { kind: 'message', message: { ...common, body, mediaType: 'vcard' } };
  }
  const text = textOf(content);
  if (text !== undefined) return { kind: 'message', message: { ...common, body: text, mediaType: 'chat' } };
  return { kind: 'ignored', reason: `unsupported ${type}` };
}
