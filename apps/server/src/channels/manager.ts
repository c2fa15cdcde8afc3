import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { AppError } from '../platform/errors/app-error.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import type { Storage } from '../platform/storage/storage.js';
import type { BaileysOptions } from './baileys/baileys.channel.js';
import { type Channel, type ChannelEvents, type ChannelStore, type ConnectionRow, OWNED_ELSEWHERE } from './channel.js';
import { type CloudOptions, createCloudChannel } from './cloud/cloud.channel.js';
import { createSandboxChannel, type SandboxChannel } from './sandbox/sandbox.channel.js';

export interface ChannelContext {
  db: Db;
  storage: Storage;
  events: ChannelEvents;
  store: ChannelStore;
  log: Logger;
}

type Factory = (row: ConnectionRow, ctx: ChannelContext) => Channel | Promise<Channel>;

/** How the manager reaches the other server instances: the realtime layer, over Redis. */
export type Instances = Pick<Realtime, 'askInstances' | 'onInstances'>;

/** The event carrying session commands to the instance that holds a connection's socket. */
export const CHANNEL_COMMAND = 'channels:command';
const id = z.number().int().positive();
const command = z.discriminatedUnion('op', [
  z.object({ op: z.enum(['restart', 'logout']), companyId: id, whatsappId: id }),
  z.object({ op: z.literal('stop'), whatsappId: id }),
]);
type Command = z.infer<typeof command>;

/** Live channels of this server instance, one per connection. */
export interface ChannelManager {
  /** Starts (or restarts) a connection here, or on the instance that holds its socket. */
  start(companyId: number, whatsappId: number): Promise<void>;
  /** Starts a connection here unless another instance holds it, which is left alone (boot). */
  restore(companyId: number, whatsappId: number): Promise<void>;
  /** Closes the connection's socket wherever it lives, without logging out. */
  stop(whatsappId: number): Promise<void>;
  /** Logs the connection out wherever it lives. */
  logout(companyId: number, whatsappId: number): Promise<void>;
  /** The live channel of a connection, or ERR_WAPP_NOT_INITIALIZED. */
  get(whatsappId: number): Channel;
  /** Whether this instance holds the connection's live channel (another may, when not). */
  holds(whatsappId: number): boolean;
  sandbox(whatsappId: number): SandboxChannel;
  /** The company's sandbox connection when it is live on this instance, else undefined (no error). */
  liveSandbox(companyId: number, whatsappId: number): SandboxChannel | undefined;
  stopAll(): Promise<void>;
  /** Where webhook-based providers (Cloud API) report what they receive. */
  readonly events: ChannelEvents;
  /** The connection rows, for the providers' routes (sandbox, webhooks). */
  readonly store: ChannelStore;
}

export function createChannelManager(
  ctx: ChannelContext,
  opts: { sandboxEnabled: boolean; cloud?: CloudOptions; beta?: BaileysOptions; instances?: Instances },
): ChannelManager {
  const live = new Map<number, { companyId: number; channel: Channel }>();
  const factories: Partial<Record<string, Factory>> = {};
  if (opts.sandboxEnabled) factories.sandbox = (row, c) => createSandboxChannel(row, c);
  const cloud = opts.cloud;
  if (cloud) factories.cloud = (row, c) => createCloudChannel(row, c, cloud);
  const beta = opts.beta;
  // Baileys is the heaviest dependency by far: loaded with the first Baileys connection, not at boot.
  if (beta)
    factories.beta = async (row, c) =>
      (await import('./baileys/baileys.channel.js')).createBaileysChannel(row, c, beta);
  const instances = opts.instances;

  /** Starts the connection on this instance; false when another instance holds its socket. */
  async function startHere(companyId: number, whatsappId: number): Promise<boolean> {
    const row = await ctx.store.connection(companyId, whatsappId);
    const factory = factories[row.provider];
    if (!factory)
      throw new AppError(
        'ERR_WAPP_NOT_INITIALIZED',
        { provider: row.provider },
        `Provider ${row.provider} is not available`,
      );
    await live.get(whatsappId)?.channel.stop();
    const channel = await factory(row, ctx);
    live.set(whatsappId, { companyId, channel });
    if ((await channel.start()) !== OWNED_ELSEWHERE) return true;
    // An idle channel must not stand for the connection here: stop and logout go to the owner.
    if (live.get(whatsappId)?.channel === channel) live.delete(whatsappId);
    return false;
  }

  async function stopHere(whatsappId: number): Promise<boolean> {
    const current = live.get(whatsappId);
    await current?.channel.stop();
    live.delete(whatsappId);
    return Boolean(current);
  }

  async function logoutHere(whatsappId: number): Promise<boolean> {
    const current = live.get(whatsappId);
    if (!current) return false;
    await current.channel.logout();
    live.delete(whatsappId);
    return true;
  }

  /** Runs the command on the other instances; true when one of them held the connection. */
  async function elsewhere(cmd: Command): Promise<boolean> {
    if (!instances) return false;
    const answers = await instances.askInstances(CHANNEL_COMMAND, cmd);
    return answers.includes(true);
  }

  /** A command from another instance: checked, and acted on only for a connection live here. */
  async function onCommand(payload: unknown): Promise<boolean> {
    const parsed = command.safeParse(payload);
    if (!parsed.success) {
      ctx.log.warn({ issues: parsed.error.issues }, 'channel command ignored: invalid');
      return false;
    }
    const cmd = parsed.data;
    const current = live.get(cmd.whatsappId);
    if (!current || (cmd.op !== 'stop' && cmd.companyId !== current.companyId)) return false;
    if (cmd.op === 'stop') return stopHere(cmd.whatsappId);
    if (cmd.op === 'logout') return logoutHere(cmd.whatsappId);
    return startHere(cmd.companyId, cmd.whatsappId);
  }
  instances?.onInstances(CHANNEL_COMMAND, onCommand);

  const sandboxHere = (whatsappId: number) => {
    const channel = live.get(whatsappId)?.channel as SandboxChannel | undefined;
    return channel?.provider === 'sandbox' ? channel : undefined;
  };

  const manager: ChannelManager = {
    events: ctx.events,
    store: ctx.store,
    async start(companyId, whatsappId) {
      if (await startHere(companyId, whatsappId)) return;
      // The owner restarts it (as a start here restarts a live channel).
      if (!(await elsewhere({ op: 'restart', companyId, whatsappId })))
        ctx.log.warn({ whatsappId }, 'connection held by an instance that did not answer: not started');
    },
    async restore(companyId, whatsappId) {
      await startHere(companyId, whatsappId);
    },
    async stop(whatsappId) {
      // Other instances too, even when it was live here: an idle channel left on one of them
      // (e.g. after a lost lock) must not outlive the connection.
      await stopHere(whatsappId);
      await elsewhere({ op: 'stop', whatsappId });
    },
    async logout(companyId, whatsappId) {
      // Awaited everywhere before returning: a start that follows (new QR) finds the lock free.
      const here = await logoutHere(whatsappId);
      const there = await elsewhere({ op: 'logout', companyId, whatsappId });
      if (!here && !there) await ctx.events.connection({ companyId, whatsappId, status: 'DISCONNECTED', qrcode: '' });
    },
    get(whatsappId) {
      const channel = live.get(whatsappId)?.channel;
      if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      return channel;
    },
    holds: (whatsappId) => live.has(whatsappId),
    sandbox(whatsappId) {
      const channel = sandboxHere(whatsappId);
      if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      return channel;
    },
    liveSandbox(companyId, whatsappId) {
      const channel = sandboxHere(whatsappId);
      return channel?.companyId === companyId ? channel : undefined;
    },
    async stopAll() {
      await Promise.all([...live.values()].map((c) => c.channel.stop()));
      live.clear();
    },
  };
  return manager;
}
