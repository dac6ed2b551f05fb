import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { Caller } from '../authz/roles.ts';
import type { ServerKeys } from '../modules/authentication/keys.ts';
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
  db: Db;
  deps: AppDeps;
  log: FastifyBaseLogger;
  now: Date;
  /** The target row, loaded and authorised before the handler runs (operations with a target). */
  target: T;
  req: FastifyRequest;
  reply: FastifyReply;
}
