import { proto } from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { whatsapps } from '../../modules/whatsapp/whatsapp.schema.js';
import { loadAuthState } from './auth-state.js';
import { baileysAuth } from './baileys.schema.js';

/** The Baileys session lives in the database: what one socket writes, the next one reads back. */

let server: TestServer;
let t: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server, { plan: { connections: 50 } });
});
afterAll(() => server?.close());

const db = () => server.deps.database.db;
async function connection(name: string): Promise<number> {
  const res = await server.call('POST', '/whatsapp', t.admin, { name, provider: 'beta' });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

describe('baileys auth state in the database', () => {
  it('keeps the creds across restarts, Buffers included', async () => {
    const id = await connection('Creds');
    const first = await loadAuthState(db(), id);
    first.state.creds.me = { id: '5511999990000:3@s.whatsapp.net', name: 'Loja' };
    first.state.creds.registered = true;
    await first.saveCreds();

    const again = await loadAuthState(db(), id);
    expect(again.state.creds.me?.id).toBe('5511999990000:3@s.whatsapp.net');
    expect(again.state.creds.registered).toBe(true);
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(again.state.creds.noiseKey.private)).toEqual(Buffer.from(first.state.creds.noiseKey.private));
    expect(again.state.creds.registrationId).toBe(first.state.creds.registrationId);
  });

  it('sets, reads and deletes every kind of key, per connection', async () => {
    const id = await connection('Keys');
    const other = await connection('Other');
    const auth = await loadAuthState(db(), id);
    const session = Buffer.from([1, 2, 3, 250]);
    await auth.state.keys.set({
      'pre-key': { '1': { public: Buffer.from('pub'), private: Buffer.from('priv') }, '2': null },
      session: { '5511988887777.0': session },
      'app-state-sync-key': { AAAA: { keyData: Buffer.from('key-data'), timestamp: 5 } },
      'lid-mapping': { '5511988887777': '123456789012345' },
    });

    const preKeys = await auth.state.keys.get('pre-key', ['1', '2']);
    expect(Object.keys(preKeys)).toEqual(['1']);
    expect(Buffer.from(preKeys['1'].private).toString()).toBe('priv');
    expect(Buffer.from((await auth.state.keys.get('session', ['5511988887777.0']))['5511988887777.0'])).toEqual(
      session,
    );
    const appKey = (await auth.state.keys.get('app-state-sync-key', ['AAAA'])).AAAA;
    // Baileys calls protobuf methods on these: they must come back as protobuf objects.
    expect(appKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(appKey.keyData as Uint8Array).toString()).toBe('key-data');
    expect((await auth.state.keys.get('lid-mapping', ['5511988887777']))['5511988887777']).toBe('123456789012345');

    const elsewhere = await loadAuthState(db(), other);
    expect(await elsewhere.state.keys.get('session', ['5511988887777.0'])).toEqual({});

    await auth.state.keys.set({ session: { '5511988887777.0': null } });
    expect(await auth.state.keys.get('session', ['5511988887777.0'])).toEqual({});
  });

  it('writes a keys.set all or nothing', async () => {
    const id = await connection('Atomic');
    const auth = await loadAuthState(db(), id);
    await auth.state.keys.set({ session: { old: Buffer.from('before') } });
    // The second write cannot be stored (key id too long): the first one must not stay either.
    await expect(
      auth.state.keys.set({
        session: { old: Buffer.from('after') },
        'sender-key': { ['x'.repeat(300)]: Buffer.from('boom') },
      }),
    ).rejects.toThrow();
    expect(Buffer.from((await auth.state.keys.get('session', ['old'])).old).toString()).toBe('before');
  });

  it('wipe forgets the session and gives fresh creds; deleting the connection removes its rows', async () => {
    const id = await connection('Wipe');
    const auth = await loadAuthState(db(), id);
    auth.state.creds.registered = true;
    await auth.saveCreds();
    await auth.state.keys.set({ 'pre-key': { '9': { public: Buffer.from('a'), private: Buffer.from('b') } } });
    const before = Buffer.from(auth.state.creds.noiseKey.public).toString('hex');
    await auth.wipe();
    expect(auth.state.creds.registered).toBe(false);
    // A new key pair, not a random 14-bit id that may repeat.
    expect(Buffer.from(auth.state.creds.noiseKey.public).toString('hex')).not.toBe(before);
    expect(await db().select().from(baileysAuth).where(eq(baileysAuth.whatsappId, id))).toEqual([]);

    const gone = await connection('Gone');
    const goneAuth = await loadAuthState(db(), gone);
    await goneAuth.saveCreds();
    await db().delete(whatsapps).where(eq(whatsapps.id, gone));
    expect(await db().select().from(baileysAuth).where(eq(baileysAuth.whatsappId, gone))).toEqual([]);
  });
});
