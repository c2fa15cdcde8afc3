import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { whatsappRow } from '../modules/whatsapp/whatsapp.service.js';
import { AppError } from '../platform/errors/app-error.js';
import type { Storage } from '../platform/storage/storage.js';
import { type BaileysOptions, createBaileysChannel } from './baileys/baileys.channel.js';
import type { Channel, ChannelEvents } from './channel.js';
import { type CloudOptions, createCloudChannel } from './cloud/cloud.channel.js';
import { createSandboxChannel, type SandboxChannel } from './sandbox/sandbox.channel.js';

export interface ChannelContext {
  db: Db;
  storage: Storage;
  events: ChannelEvents;
  log: Logger;
}

type Row = Awaited<ReturnType<typeof whatsappRow>>;
type Factory = (row: Row, ctx: ChannelContext) => Channel;

/** Live channels of this server instance, one per connection. */
export interface ChannelManager {
  start(companyId: number, whatsappId: number): Promise<void>;
  stop(whatsappId: number): Promise<void>;
  logout(companyId: number, whatsappId: number): Promise<void>;
  /** The live channel of a connection, or ERR_WAPP_NOT_INITIALIZED. */
  get(whatsappId: number): Channel;
  sandbox(whatsappId: number): SandboxChannel;
  stopAll(): Promise<void>;
  /** Where webhook-based providers (Cloud API) report what they receive. */
  readonly events: ChannelEvents;
}

export function createChannelManager(
  ctx: ChannelContext,
  opts: { sandboxEnabled: boolean; cloud?: CloudOptions; beta?: BaileysOptions },
): ChannelManager {
  const live = new Map<number, Channel>();
  const factories: Partial<Record<string, Factory>> = {};
  if (opts.sandboxEnabled) factories.sandbox = (row, c) => createSandboxChannel(row, c);
  const cloud = opts.cloud;
  if (cloud) factories.cloud = (row, c) => createCloudChannel(row, c, cloud);
  const beta = opts.beta;
  if (beta) factories.beta = (row, c) => createBaileysChannel(row, c, beta);

  const manager: ChannelManager = {
    events: ctx.events,
    async start(companyId, whatsappId) {
      const row = await whatsappRow(ctx.db, companyId, whatsappId);
      const factory = factories[row.provider];
      if (!factory)
        throw new AppError(
          'ERR_WAPP_NOT_INITIALIZED',
          { provider: row.provider },
          `Provider ${row.provider} is not available`,
        );
      await live.get(whatsappId)?.stop();
      const channel = factory(row, ctx);
      live.set(whatsappId, channel);
      await channel.start();
    },
    async stop(whatsappId) {
      await live.get(whatsappId)?.stop();
      live.delete(whatsappId);
    },
    async logout(companyId, whatsappId) {
      const channel = live.get(whatsappId);
      if (channel) {
        await channel.logout();
        live.delete(whatsappId);
        return;
      }
      await ctx.events.connection({ companyId, whatsappId, status: 'DISCONNECTED', qrcode: '' });
    },
    get(whatsappId) {
      const channel = live.get(whatsappId);
      if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      return channel;
    },
    sandbox(whatsappId) {
      const channel = live.get(whatsappId) as SandboxChannel | undefined;
      if (channel?.provider !== 'sandbox') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      return channel;
    },
    async stopAll() {
      await Promise.all([...live.values()].map((c) => c.stop()));
      live.clear();
    },
  };
  return manager;
}
