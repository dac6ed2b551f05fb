import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import type { Caller } from '../authz/roles.ts';
import type { ServerKeys } from '../shared/keys.ts';
import type { Background } from '../background.ts';

/** What the application is built from; tests build it the same way with their own values. */
export interface AppDeps {
  database: Database;
  config: Config;
  keys: ServerKeys;
  /** The service's clock; every rule that reads the time goes through it. */
  now: () => Date;
  /** Jobs, XMPP, the event dispatcher and the external systems' ports (absent: none started). */
  background?: Background;
}

export interface OperationContext<T = Record<string, unknown>> {
  caller: Caller;
  /**
   * Where the handler runs its statements: the database, or the transaction that also stores
   * the answer of an Idempotency-Key. Services open their own (nested) transactions on it.
   */
  db: Executor;
  deps: AppDeps;
  log: FastifyBaseLogger;
  now: Date;
  /** The target row, loaded and authorised before the handler runs (operations with a target). */
  target: T;
  /** The parent row named by the path, when the declaration has one. */
  parent: Record<string, unknown> | undefined;
  /** The second resources acted on, by the names of the declaration (absent when not acted on). */
  second: Record<string, Record<string, unknown> | undefined>;
  /** For operations declaring a scope: the WHERE clause of the caller's grants (undefined: any). */
  scope: SQL | undefined;
  /** For operations declaring a scope: equal for callers whose `scope` is the same clause. */
  scopeKey: string | undefined;
  /** The values of the target reference's `extras`, read in the authorising statement (by name). */
  extras: Record<string, unknown>;
  /** The version of the operation's `listVersion` family, read in the authorising statement. */
  listVersion: string | undefined;
  req: FastifyRequest;
  reply: FastifyReply;
}
