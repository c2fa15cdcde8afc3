import { companyEvent } from '@balcao/shared';
import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { squareImage } from '../../platform/storage/images.js';
import { keyOfMediaUrl, mediaUrlOf, type Storage } from '../../platform/storage/storage.js';
import { contacts } from './contacts.schema.js';
import { findContact } from './contacts.service.js';

/** Fetches waiting beyond this are dropped (a flood of new contacts): those contacts try again the next day. */
const MAX_WAITING = 1_000;

export interface ContactPictures {
  /** Queues the contact's picture refresh and returns at once; a contact already waiting keeps its place. */
  offer(companyId: number, contactId: number, fetch: () => Promise<Buffer | null>): void;
}

/**
 * Contacts' profile pictures (DOMAIN §1.4), off the inbound hot path: the pipeline decides, inside its
 * transaction, that a contact is new or due for its daily refresh; the picture is then fetched here,
 * one at a time per server instance (WhatsApp sees no burst of profile queries), squared, and stored
 * under a server key, since WhatsApp's URLs expire. `profilePicUrl` then points at our copy, served by
 * `/media` to the company's members only: a customer's photo is personal data, like received media.
 * A fetch that fails keeps the picture we had; the contact is tried again at its next refresh.
 */
export function createContactPictures(deps: { db: Db; realtime: Realtime; storage: Storage; log: Logger }) {
  const waiting = new Map<number, { companyId: number; fetch: () => Promise<Buffer | null> }>();
  let draining = false;

  /** Points the contact at `url` and answers the URL it had; undefined when the contact is gone or unchanged. */
  async function swap(companyId: number, id: number, url: string) {
    return deps.db.transaction(async (tx) => {
      const where = and(eq(contacts.id, id), eq(contacts.companyId, companyId));
      const [row] = await tx.select({ url: contacts.profilePicUrl }).from(contacts).where(where).for('update');
      if (!row || row.url === url) return undefined;
      await tx.update(contacts).set({ profilePicUrl: url }).where(where);
      return row.url;
    });
  }

  async function refresh(companyId: number, contactId: number, fetch: () => Promise<Buffer | null>) {
    const picture = await fetch();
    let key: string | null = null;
    if (picture) {
      const image = await squareImage(picture);
      key = (await deps.storage.put(companyId, image.data, `picture.${image.ext}`)).key;
    }
    const previous = await swap(companyId, contactId, key ? mediaUrlOf(key) : '');
    if (previous === undefined) {
      if (key) await deps.storage.remove(key);
      return;
    }
    const previousKey = keyOfMediaUrl(previous);
    if (previousKey) await deps.storage.remove(previousKey);
    const contact = await findContact(deps.db, companyId, contactId);
    deps.realtime.toCompany(companyId, companyEvent.contact(companyId), { action: 'update', contact });
  }

  async function drain() {
    draining = true;
    for (const [contactId, { companyId, fetch }] of waiting) {
      waiting.delete(contactId);
      await refresh(companyId, contactId, fetch).catch((err) =>
        deps.log.warn({ err, contactId }, 'contact picture not refreshed'),
      );
    }
    draining = false;
  }

  return {
    offer(companyId, contactId, fetch) {
      if (!waiting.has(contactId) && waiting.size >= MAX_WAITING) return;
      waiting.set(contactId, { companyId, fetch });
      if (!draining) void drain();
    },
  } satisfies ContactPictures;
}
