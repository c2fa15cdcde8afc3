import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { anyTenant } from '../../db/any-tenant.js';
import type { Db } from '../../db/client.js';
import { baileysAuth } from './baileys.schema.js';

const CREDS = 'creds';

export interface DbAuthState {
  state: AuthenticationState;
  /** Writes the (mutated) creds object; Baileys asks for it on every `creds.update`. */
  saveCreds(): Promise<void>;
  /** Forgets the whole session (logged out): the next socket starts with a new QR code. */
  wipe(): Promise<void>;
}

const encode = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);
const decode = (text: string): unknown => JSON.parse(text, BufferJSON.reviver);

/**
 * Baileys' auth state in the database instead of files: one row per creds / signal key. Every
 * `keys.set` runs in one transaction, so a crash never leaves half a ratchet update behind.
 */
export async function loadAuthState(db: Db, whatsappId: number): Promise<DbAuthState> {
  const [stored] = await db
    .select({ value: baileysAuth.value })
    .from(baileysAuth)
    .where(and(eq(baileysAuth.whatsappId, whatsappId), eq(baileysAuth.type, CREDS), eq(baileysAuth.keyId, '')));
  const creds: AuthenticationCreds = stored ? (decode(stored.value) as AuthenticationCreds) : initAuthCreds();

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const found: { [id: string]: SignalDataTypeMap[T] } = {};
        if (ids.length === 0) return found;
        const rows = await db
          .select({ keyId: baileysAuth.keyId, value: baileysAuth.value })
          .from(baileysAuth)
          .where(
            and(
              eq(baileysAuth.whatsappId, anyTenant(whatsappId)),
              eq(baileysAuth.type, type),
              inArray(baileysAuth.keyId, ids),
            ),
          );
        for (const row of rows) {
          const value = decode(row.value);
          // The app state keys are protobuf objects that Baileys calls methods on.
          found[row.keyId] = (
            type === 'app-state-sync-key'
              ? proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>)
              : value
          ) as SignalDataTypeMap[T];
        }
        return found;
      },
      async set(data: SignalDataSet) {
        await db.transaction(async (tx) => {
          for (const [type, entries] of Object.entries(data)) {
            const removed: string[] = [];
            const written: { whatsappId: number; type: string; keyId: string; value: string }[] = [];
            for (const [keyId, value] of Object.entries(entries ?? {})) {
              if (value === null || value === undefined) removed.push(keyId);
              else written.push({ whatsappId, type, keyId, value: encode(value) });
            }
            if (removed.length)
              await tx
                .delete(baileysAuth)
                .where(
                  and(
                    eq(baileysAuth.whatsappId, anyTenant(whatsappId)),
                    eq(baileysAuth.type, type),
                    inArray(baileysAuth.keyId, removed),
                  ),
                );
            if (written.length)
              await tx
                .insert(baileysAuth)
                .values(written)
                .onConflictDoUpdate({
                  target: [baileysAuth.whatsappId, baileysAuth.type, baileysAuth.keyId],
                  set: { value: sql`excluded.value`, updatedAt: sql`now()` },
                });
          }
        });
      },
      async clear() {
        await db.delete(baileysAuth).where(eq(baileysAuth.whatsappId, whatsappId));
      },
    },
  };

  return {
    state,
    async saveCreds() {
      await db
        .insert(baileysAuth)
        .values({ whatsappId, type: CREDS, keyId: '', value: encode(state.creds) })
        .onConflictDoUpdate({
          target: [baileysAuth.whatsappId, baileysAuth.type, baileysAuth.keyId],
          set: { value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    },
    async wipe() {
      await db.delete(baileysAuth).where(eq(baileysAuth.whatsappId, whatsappId));
      // The next socket is made with this state: fresh creds, so it shows a new QR code.
      state.creds = initAuthCreds();
    },
  };
}
