import type { Logger } from 'pino';
import type { InboundFile, InboundMessage } from '../channels/channel.js';
import type { Storage, StoredFile } from '../platform/storage/storage.js';

/** A download that fails once (a dropped connection, an expired link being renewed) gets one more try. */
const ATTEMPTS = 2;

/** The received file written to the company's storage, or null when it could not be had. */
export async function saveMedia(
  deps: { storage: Storage; log: Logger },
  m: InboundMessage & { media: InboundFile },
): Promise<StoredFile | null> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const file = 'data' in m.media ? m.media.data : await m.media.download();
      return await deps.storage.put(m.companyId, file, m.media.fileName);
    } catch (err) {
      deps.log.warn({ err, providerId: m.providerId, attempt }, 'received file not saved');
    }
  }
  return null;
}

/**
 * The message as stored when its file could not be saved: its caption and a note naming the file,
 * so that the agent still sees that the contact sent something.
 */
export function withoutFile(m: InboundMessage & { media: InboundFile }): InboundMessage {
  const note = `📎 ${m.media.fileName} (arquivo não recebido)`;
  return { ...m, media: undefined, mediaType: 'chat', body: m.body ? `${m.body}\n${note}` : note };
}
