import { type AnyColumn, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from './client.js';
import {
  anyOfUnseen,
  connectionOf,
  type Preparable,
  type Prepared,
  preparableSql,
  prepareNamed,
} from './named-statement.js';

/** Shapes remembered per connection (connectionOf): their number follows the filters' combinations. */
const MAX_SHAPES = 256;

/**
 * The values and choices of a query whose text follows the request's filters. A `bound` shape puts
 * each value in the text as a placeholder and records every choice that changes the text, so that
 * `shaped` builds the query once per shape; an `inline` one binds the values at once, for a query
 * run as it is built. The choices are the text's whole story: the same key must always mean the
 * same text (query-shape.test.ts holds the tickets list to it over every combination).
 */
export class QueryShape {
  readonly values: Record<string, unknown> = {};
  private readonly choices: string[] = [];
  private planFollowsValues = false;

  private constructor(private readonly bound: boolean) {}

  static bound(): QueryShape {
    return new QueryShape(true);
  }

  static inline(): QueryShape {
    return new QueryShape(false);
  }

  /** A branch of the text (which filter, which form); never a value. */
  choose(choice: string): void {
    this.choices.push(choice);
  }

  /**
   * A value, one parameter whatever it holds (an array stays one array parameter), for `unseenArray`
   * or `anyOfUnseen` to hide, or for a statement whose form does not depend on how it is planned.
   */
  value(name: string, value: unknown): Placeholder | SQL {
    if (!this.bound) return sql`${sql.param(value)}`;
    if (name in this.values && this.values[name] !== value) throw new Error(`query shape: "${name}" bound twice`);
    this.values[name] = value;
    return sql.placeholder(name);
  }

  /**
   * A value the plan depends on (a search term, a day), written in the planner's sight: PostgreSQL
   * plans the statement on each of its calls (`plannedPerCall`).
   */
  inSight(name: string, value: unknown): Placeholder | SQL {
    this.planFollowsValues = true;
    return this.value(name, value);
  }

  /**
   * Whether the statement is planned on each call rather than once per connection: it holds a value
   * given `inSight`. Follows the choices, so a statement's form may depend on it.
   */
  get plannedPerCall(): boolean {
    return this.planFollowsValues;
  }

  /**
   * A value the plan must not depend on, `(select $n::type)`: planned without it, the statement's
   * custom plans cost what its generic plan does, and from the sixth call on a connection PostgreSQL
   * keeps the generic one instead of planning each call. For filters whose best plan is the same
   * whatever the value (a company, a status, a user); a search term's plan depends on it.
   */
  unseen(name: string, value: unknown, type: string): SQL {
    return sql`(select ${this.value(name, value)}::${sql.raw(type)})`;
  }

  get key(): string {
    return this.choices.join('|');
  }
}

/**
 * `column = any($n)`: one array parameter whatever the number of ids (an IN list's text would follow
 * it), out of the planner's sight as QueryShape.unseen's values are.
 */
export const anyOf = (column: AnyColumn, shape: QueryShape, name: string, ids: readonly number[]): SQL =>
  anyOfUnseen(column, shape.value(name, ids), 'int');

const built = new WeakMap<object, Map<string, Prepared<unknown>>>();

/** Runs a query of `shape`, built (by `build`, with the shape's placeholders) on its shape's first call only. */
export function shaped<T>(name: string, db: Db, shape: QueryShape, build: () => Preparable<T>): Promise<T> {
  const connection = connectionOf(db);
  let byKey = built.get(connection);
  if (!byKey) {
    byKey = new Map();
    built.set(connection, byKey);
  }
  const key = `${name}:${shape.key}`;
  let prepared = byKey.get(key) as Prepared<T> | undefined;
  if (!prepared) {
    if (byKey.size >= MAX_SHAPES) byKey.delete(byKey.keys().next().value as string);
    prepared = prepareNamed(name, build());
    byKey.set(key, prepared as Prepared<unknown>);
  }
  return prepared.execute(shape.values);
}

/** `shaped` for SQL written as such: it answers as `db.execute`. */
export function executeShaped(name: string, db: Db, shape: QueryShape, query: SQL): Promise<unknown> {
  return shaped(name, db, shape, () => preparableSql(db, query));
}
