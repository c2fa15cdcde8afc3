import type { Server as HttpServer } from 'node:http';
import { SOCKET_PING_MS } from '@balcao/shared';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import type { Caller } from '../tenancy/context.js';

export const rooms = {
  company: (id: number) => `company:${id}`,
  user: (id: number) => `user:${id}`,
  session: (id: string) => `session:${id}`,
};

type Authenticator = (token: string) => Promise<Caller | null>;
type SocketHandler = (caller: Caller, socket: Socket) => void | Promise<void>;

/** The only way modules talk to browsers: named events to rooms scoped by company. */
export interface Realtime {
  toCompany(companyId: number, event: string, payload: unknown): void;
  toUser(userId: number, event: string, payload: unknown): void;
  toSession(sessionId: string, event: string, payload: unknown): void;
  /** Runs for every authenticated socket once it has joined its rooms. */
  onConnection(handler: SocketHandler): void;
  /** Runs when a socket leaves; `lastOfUser` says whether the user has no other socket. */
  onDisconnect(handler: (caller: Caller, lastOfUser: boolean) => void | Promise<void>): void;
  attach(server: HttpServer, authenticate: Authenticator): Server;
  close(): Promise<void>;
}

export function createRealtime(opts: {
  corsOrigin: string[];
  redis?: { pub: Redis; sub: Redis };
  log: Logger;
}): Realtime {
  let io: Server | undefined;
  const connectionHandlers: SocketHandler[] = [];
  const disconnectHandlers: ((caller: Caller, last: boolean) => void | Promise<void>)[] = [];
  const send = (room: string, event: string, payload: unknown) => {
    io?.to(room).emit(event, payload);
  };

  return {
    toCompany: (companyId, event, payload) => send(rooms.company(companyId), event, payload),
    toUser: (userId, event, payload) => send(rooms.user(userId), event, payload),
    toSession: (sessionId, event, payload) => send(rooms.session(sessionId), event, payload),
    onConnection: (h) => {
      connectionHandlers.push(h);
    },
    onDisconnect: (h) => {
      disconnectHandlers.push(h);
    },
    attach(server, authenticate) {
      io = new Server(server, {
        cors: { origin: opts.corsOrigin, credentials: true },
        pingInterval: SOCKET_PING_MS,
        pingTimeout: SOCKET_PING_MS,
      });
      if (opts.redis) io.adapter(createAdapter(opts.redis.pub, opts.redis.sub));
      io.use(async (socket, next) => {
        const token = socket.handshake.auth?.token ?? socket.handshake.query?.token;
        const caller = typeof token === 'string' ? await authenticate(token).catch(() => null) : null;
        if (!caller) return next(new Error('ERR_SESSION_EXPIRED'));
        socket.data.caller = caller;
        next();
      });
      io.on('connection', async (socket) => {
        const caller = socket.data.caller as Caller;
        // The socket's rooms come from its token alone: a client can never name another company.
        await socket.join([
          rooms.company(caller.companyId),
          rooms.user(caller.userId),
          rooms.session(caller.sessionId),
        ]);
        for (const h of connectionHandlers) {
          Promise.resolve(h(caller, socket)).catch((err) => opts.log.error({ err }, 'socket connection handler'));
        }
        socket.on('disconnect', async () => {
          const remaining = await io?.in(rooms.user(caller.userId)).fetchSockets();
          const last = (remaining?.length ?? 0) === 0;
          for (const h of disconnectHandlers) {
            Promise.resolve(h(caller, last)).catch((err) => opts.log.error({ err }, 'socket disconnect handler'));
          }
        });
      });
      return io;
    },
    async close() {
      await io?.close();
    },
  };
}
