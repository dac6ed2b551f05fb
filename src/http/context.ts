import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { Caller } from '../authz/roles.ts';
import type { ServerKeys } from '../modules/authentication/keys.ts';

/** What the application is built from; tests build it the same way with their own values. */
export interface AppDeps {
  database: Database;
  config: Config;
  keys: ServerKeys;
  /** The service's clock; every rule that reads the time goes through it. */
  now: () => Date;
}

export interface OperationContext<T = Record<string, unknown>> {
  caller: Caller;
  db: Db;
  deps: AppDeps;
  log: FastifyBaseLogger;
  now: Date;
  /** The target row, loaded and authorised before the handler runs (operations with a target). */
  target: T;
  /** The values of the target reference's `extras`, read in the authorising statement (by name). */
  extras: Record<string, unknown>;
  req: FastifyRequest;
  reply: FastifyReply;
}
