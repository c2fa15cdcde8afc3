import type { Server as HttpServer } from 'node:http';
import { SOCKET_PING_MS } from '@balcao/shared';
import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import type { Caller } from '../tenancy/context.js';
import type { RedisClients } from './redis-clients.js';

export const rooms = {
  company: (id: number) => `company:${id}`,
  user: (id: number) => `user:${id}`,
  session: (id: string) => `session:${id}`,
  /** The company's admins (and super users): every ticket, users' full records, settings' secret keys. */
  admins: (companyId: number) => `company:${companyId}:admins`,
  /** Members of a queue see its tickets. */
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  /** Users with `allTicket` enabled also see tickets that have no queue yet. */
  noQueue: (companyId: number) => `company:${companyId}:noqueue`,
  /** Every signed-in socket of every company: platform-wide announcements. */
  everyone: 'platform:everyone',
  /** The super users' sockets: what only they may read (inactive announcements). */
  supers: 'platform:supers',
};

type Authenticator = (token: string) => Promise<Caller | null>;
type SocketHandler = (caller: Caller, socket: Socket) => void | Promise<void>;
/** Answers a command of another instance; the value goes back to the sender. */
export type InstanceHandler = (payload: unknown) => unknown | Promise<unknown>;

/** The only way modules talk to browsers: named events to rooms scoped by company. */
export interface Realtime {
  toCompany(companyId: number, event: string, payload: unknown): void;
  toUser(userId: number, event: string, payload: unknown): void;
  toSession(sessionId: string, event: string, payload: unknown): void;
  /**
   * One emission to the union of rooms: a socket in several of them gets it once; a socket in any
   * of `except` gets nothing.
   */
  toRooms(roomNames: string[], event: string, payload: unknown, except?: string[]): void;
  /**
   * Ends sockets at once, on every instance (through the adapter): a socket of an ended session
   * must receive nothing more. Call after the session rows are revoked, so that a reconnect is refused.
   */
  disconnectSessions(sessionIds: string[]): void;
  disconnectUser(userId: number): void;
  disconnectCompany(companyId: number): void;
  /** Moves every socket of a user into and out of rooms (e.g. after its queues changed). */
  syncUserRooms(userId: number, join: string[], leave: string[]): void;
  /** Adds rooms a new socket joins before its connection is acknowledged (e.g. its queues). */
  addRoomResolver(resolver: (caller: Caller) => Promise<string[]>): void;
  /** Runs for every authenticated socket once it has joined its rooms. */
  onConnection(handler: SocketHandler): void;
  /** Runs when a socket leaves; `lastOfUser` says whether the user has no other socket. */
  onDisconnect(handler: (caller: Caller, lastOfUser: boolean) => void | Promise<void>): void;
  /**
   * Sends `payload` to the other server instances (through Redis) and resolves with their answers,
   * once all answered or the adapter's timeout passed (then with those that came). Without Redis
   * there is no other instance: [].
   */
  askInstances(event: string, payload: unknown): Promise<unknown[]>;
  /** Answers `askInstances` of the other instances (one handler per event); bound once attached. */
  onInstances(event: string, handler: InstanceHandler): void;
  attach(server: HttpServer, authenticate: Authenticator): Server;
  close(): Promise<void>;
}

export function createRealtime(opts: {
  corsOrigin: string[];
  /** `key` prefixes the pub/sub channels: instances share events only with the same key. */
  redis?: RedisClients & { key?: string };
  log: Logger;
}): Realtime {
  let io: Server | undefined;
  const connectionHandlers: SocketHandler[] = [];
  const roomResolvers: ((caller: Caller) => Promise<string[]>)[] = [];
  const disconnectHandlers: ((caller: Caller, last: boolean) => void | Promise<void>)[] = [];
  const instanceHandlers = new Map<string, InstanceHandler>();
  // Once closed, late emissions (e.g. presence updates of sockets closed by the shutdown) are
  // dropped: the Redis adapter would publish them on a connection that is going away.
  let closed = false;
  const send = (room: string, event: string, payload: unknown) => {
    if (!closed) io?.to(room).emit(event, payload);
  };
  const disconnect = (roomNames: string[]) => {
    if (io && !closed && roomNames.length) io.in(roomNames).disconnectSockets(true);
  };

  /** The adapter appends the ack callback; a failing handler answers null, never leaves the sender waiting. */
  const bindInstanceHandler = (server: Server, event: string, handler: InstanceHandler) => {
    server.on(event, async (payload: unknown, ack?: (answer: unknown) => void) => {
      let answer: unknown = null;
      try {
        answer = await handler(payload);
      } catch (err) {
        opts.log.error({ err, event }, 'instances: command failed');
      }
      if (typeof ack === 'function') ack(answer ?? null);
    });
  };

  return {
    toCompany: (companyId, event, payload) => send(rooms.company(companyId), event, payload),
    toUser: (userId, event, payload) => send(rooms.user(userId), event, payload),
    toSession: (sessionId, event, payload) => send(rooms.session(sessionId), event, payload),
    toRooms: (roomNames, event, payload, except = []) => {
      if (io && !closed && roomNames.length) io.to(roomNames).except(except).emit(event, payload);
    },
    disconnectSessions: (sessionIds) => disconnect(sessionIds.map(rooms.session)),
    disconnectUser: (userId) => disconnect([rooms.user(userId)]),
    disconnectCompany: (companyId) => disconnect([rooms.company(companyId)]),
    syncUserRooms: (userId, join, leave) => {
      if (!io) return;
      if (join.length) io.in(rooms.user(userId)).socketsJoin(join);
      for (const room of leave) io.in(rooms.user(userId)).socketsLeave(room);
    },
    addRoomResolver: (r) => {
      roomResolvers.push(r);
    },
    onConnection: (h) => {
      connectionHandlers.push(h);
    },
    onDisconnect: (h) => {
      disconnectHandlers.push(h);
    },
    async askInstances(event, payload) {
      if (!io || closed || !opts.redis) return [];
      try {
        return await io.serverSideEmitWithAck(event, payload);
      } catch (err) {
        // An instance that did not answer in time: act on the answers that came.
        opts.log.warn({ err, event }, 'instances: not every instance answered');
        return ((err as { responses?: unknown[] }).responses ?? []) as unknown[];
      }
    },
    onInstances: (event, handler) => {
      instanceHandlers.set(event, handler);
      if (io) bindInstanceHandler(io, event, handler);
    },
    attach(server, authenticate) {
      io = new Server(server, {
        cors: { origin: opts.corsOrigin, credentials: true },
        pingInterval: SOCKET_PING_MS,
        pingTimeout: SOCKET_PING_MS,
      });
      if (opts.redis) io.adapter(opts.redis.adapter(opts.redis.key ?? 'socket.io'));
      for (const [event, handler] of instanceHandlers) bindInstanceHandler(io, event, handler);
      io.use(async (socket, next) => {
        const token = socket.handshake.auth?.token ?? socket.handshake.query?.token;
        const caller = typeof token === 'string' ? await authenticate(token).catch(() => null) : null;
        if (!caller) return next(new Error('ERR_SESSION_EXPIRED'));
        socket.data.caller = caller;
        socket.data.token = token;
        try {
          socket.data.rooms = (await Promise.all(roomResolvers.map((r) => r(caller)))).flat();
        } catch (err) {
          opts.log.error({ err }, 'socket room resolver');
          return next(new Error('ERR_INTERNAL'));
        }
        next();
      });
      io.on('connection', async (socket) => {
        const caller = socket.data.caller as Caller;
        // The socket's rooms come from its token alone: a client can never name another company.
        await socket.join([
          rooms.company(caller.companyId),
          rooms.user(caller.userId),
          rooms.session(caller.sessionId),
          rooms.everyone,
          ...(caller.isSuper ? [rooms.supers] : []),
          ...(socket.data.rooms as string[]),
        ]);
        // A session ended between the handshake's check and the join above was disconnected
        // before this socket was in its rooms: checked once more now that it is.
        if (!(await authenticate(socket.data.token).catch(() => null))) {
          socket.disconnect(true);
          return;
        }
        for (const h of connectionHandlers) {
          Promise.resolve(h(caller, socket)).catch((err) => opts.log.error({ err }, 'socket connection handler'));
        }
        socket.on('disconnect', async () => {
          // With the Redis adapter this asks the other instances; a Redis failure (or a shutdown)
          // must not become an unhandled rejection, which would end the process.
          let last: boolean;
          try {
            const remaining = await io?.in(rooms.user(caller.userId)).fetchSockets();
            last = (remaining?.length ?? 0) === 0;
          } catch (err) {
            opts.log.warn({ err }, 'socket disconnect: cannot count the user’s other sockets');
            return;
          }
          for (const h of disconnectHandlers) {
            Promise.resolve(h(caller, last)).catch((err) => opts.log.error({ err }, 'socket disconnect handler'));
          }
        });
      });
      return io;
    },
    async close() {
      closed = true;
      await io?.close();
    },
  };
}
