import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client.js';
import type { Caller } from './context.js';
import { callerFrom, type SessionRow, sessionRow } from './guards.js';

/** The channel of migration 0022's triggers: "s:<session>", "u:<user>", "c:<company>", "p:<plan>" or "*". */
const CHANNEL = 'caller_changes';
/** Sessions remembered at once: one per signed-in tab; the oldest is forgotten first. */
const MAX_CALLERS = 10_000;
/** A remembered row is read again after this long even if no change was heard (defence in depth). */
const TTL_MS = 60_000;
/** How long the start waits for its own test notification before serving without the cache. */
const PROBE_WAIT_MS = 2_000;

/** What changed: the callers it touches are forgotten. */
export type CallerChange = { sessions: string[] } | { user: number } | { company: number } | { plan: number } | 'all';

export interface Callers {
  /** The caller of a session: what the session check would read, without reading it while nothing changed. */
  of(sessionId: string, userId: number): Promise<Caller | null>;
  forget(change: CallerChange): void;
  close(): Promise<void>;
}

const callersOfDb = new WeakMap<Db, Set<Callers>>();

/**
 * Called by a writer after it committed a change the session check reads (a revoked session, a
 * user's profile or queues, a company's status, a plan): the instance that wrote forgets at once,
 * so its next request sees the change; the other instances hear it from the database.
 */
export function forgetCallers(db: Db, change: CallerChange): void {
  for (const callers of callersOfDb.get(db) ?? []) callers.forget(change);
}

function changeOf(payload: string): CallerChange {
  const [scope, id] = [payload.slice(0, 1), payload.slice(2)];
  if (scope === 's' && id) return { sessions: [id] };
  const n = Number(id);
  if (!Number.isInteger(n)) return 'all';
  if (scope === 'u') return { user: n };
  if (scope === 'c') return { company: n };
  if (scope === 'p') return { plan: n };
  return 'all';
}

const rowKey = { user: 'userId', company: 'companyId', plan: 'planId' } as const;

/**
 * The session check's rows, remembered per session so that a request does not read its session,
 * user, queues, company and plan again. Every committed change to those tables is announced by the
 * database (migration 0022's triggers notify 'caller_changes') and forgotten here. Nothing is
 * remembered until this instance has heard a notification it sent itself after LISTEN (a pooler
 * in transaction mode accepts LISTEN and never delivers), nor after its connection dropped until it
 * listens and hears itself again. A read that a change overtook is not remembered (`generation`).
 * Expiry, revocation and a company's due date are checked on every use (`callerFrom`).
 */
export async function createCallers(database: Database, log?: FastifyBaseLogger): Promise<Callers> {
  const { db } = database;
  const rows = new Map<string, { row: SessionRow; at: number }>();
  let listening = false;
  let generation = 0;
  let probe: string | undefined;
  let heard: () => void = () => {};
  const firstHeard = new Promise<void>((resolve) => {
    heard = resolve;
  });

  const forget = (change: CallerChange) => {
    generation += 1;
    if (change === 'all') return rows.clear();
    if ('sessions' in change) {
      for (const id of change.sessions) rows.delete(id);
      return;
    }
    const [scope, id] = Object.entries(change)[0] as [keyof typeof rowKey, number];
    const key = rowKey[scope];
    for (const [sessionId, entry] of rows) if (entry.row[key] === id) rows.delete(sessionId);
  };

  const remember = (sessionId: string, row: SessionRow) => {
    // Every request of the session shares these arrays and objects: none may change them.
    Object.freeze(row.queueIds);
    if (row.plan) Object.freeze(row.plan);
    rows.delete(sessionId);
    if (rows.size >= MAX_CALLERS) rows.delete(rows.keys().next().value as string);
    rows.set(sessionId, { row, at: Date.now() });
  };

  const stop = await database.listen(CHANNEL, {
    message: (payload) => {
      if (!payload.startsWith('?')) return forget(changeOf(payload));
      if (payload !== probe) return;
      probe = undefined;
      forget('all');
      listening = true;
      heard();
    },
    ready: () => {
      forget('all');
      probe = `?${randomUUID()}`;
      database.query('select pg_notify($1, $2)', [CHANNEL, probe]).catch(() => {});
    },
    lost: () => {
      listening = false;
      probe = undefined;
      forget('all');
    },
  });
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([firstHeard, new Promise((resolve) => (waited = setTimeout(resolve, PROBE_WAIT_MS)))]);
  clearTimeout(waited);
  if (!listening)
    log?.warn(`session cache off: notifications on ${CHANNEL} do not arrive (a pooler in transaction mode?)`);

  const callers: Callers = {
    async of(sessionId, userId) {
      const known = rows.get(sessionId);
      if (known && Date.now() - known.at < TTL_MS) return callerFrom(known.row, sessionId, userId);
      const seen = generation;
      const row = await sessionRow(db, sessionId);
      if (!row) return null;
      if (listening && seen === generation) remember(sessionId, row);
      return callerFrom(row, sessionId, userId);
    },
    forget,
    async close() {
      callersOfDb.get(db)?.delete(callers);
      listening = false;
      rows.clear();
      await stop();
    },
  };
  const registered = callersOfDb.get(db) ?? new Set();
  registered.add(callers);
  callersOfDb.set(db, registered);
  return callers;
}
