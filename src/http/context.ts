import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import type { Caller } from '../authz/roles.ts';
import type { ServerKeys } from '../shared/keys.ts';
import type { Background } from '../background.ts';
import type { Authorised } from './authorise.ts';
import type { Element } from '@xmpp/xml';
import type { JobQueue } from '../jobs/queue.ts';
import { portsOf, type Ports } from '../ports/ports.ts';
import type { XmppAccounts } from '../xmpp/accounts.ts';
import { simulateGateway } from '../xmpp/gateway-simulator.ts';

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

/**
 * The dependencies a command may use, each on its own: the database's pool (for the lists read
 * through prepared statements), the settings, the server's keys, the external systems, the job
 * queue, XMPP requests and the XMPP server's accounts. Services are given the ones they use, not
 * the application.
 */
export interface CommandDeps {
  database: Database;
  config: Config;
  keys: ServerKeys;
  ports: Ports;
  /** The job queue; absent in an application built without its background (jobs are then not sent). */
  queue: JobQueue | undefined;
  /**
   * Sends an iq and awaits its reply (a telephone system's gateway, document 1, Gateway
   * notifications); without a background, the embedded gateway simulator answers (GATEWAY_SIMULATOR).
   */
  xmppRequest: (to: string, iq: Element) => Promise<Element>;
  /** The accounts the service owns on the XMPP server (XMPP_ACCOUNTS); absent without a background. */
  xmppAccounts: XmppAccounts | undefined;
  /**
   * The application, for a command that runs other operations' commands for its caller
   * (src/http/run-command.ts: the bulk import's check judges each line as those operations would).
   */
  app: AppDeps;
}

/** The command dependencies of an application. */
export function commandDeps(deps: AppDeps): CommandDeps {
  let made = madeDeps.get(deps);
  if (!made) madeDeps.set(deps, (made = makeCommandDeps(deps)));
  return made;
}

/** Made once per application, not at every request. */
const madeDeps = new WeakMap<AppDeps, CommandDeps>();

/**
 * Each dependency is read from the application when the command uses it: the background (queue,
 * XMPP, accounts) is given to an application after it is built (src/serve.ts), and its parts may
 * be replaced while it runs (an XMPP account maker, in tests).
 */
function makeCommandDeps(deps: AppDeps): CommandDeps {
  const x = deps.config.xmpp;
  return {
    get database() {
      return deps.database;
    },
    get config() {
      return deps.config;
    },
    get keys() {
      return deps.keys;
    },
    get ports() {
      return portsOf(deps);
    },
    get queue() {
      return deps.background?.queue;
    },
    xmppRequest: (to, iq) =>
      deps.background
        ? deps.background.xmpp.request(to, iq)
        : simulateGateway(
            { mode: x.gatewaySimulator, delayMs: x.gatewaySimulatorDelayMs },
            to,
            iq,
            x.requestTimeoutMs,
            undefined,
          ),
    get xmppAccounts() {
      return deps.background?.xmppAccounts;
    },
    app: deps,
  };
}

/**
 * What a command (one business operation) runs with, whether an HTTP request or a job calls it:
 * where its statements go, who calls, the time, and the resources resolved and authorised for it.
 */
export interface CommandContext<T = Record<string, unknown>, PR = Record<string, never>, X = Record<string, unknown>> {
  caller: Caller;
  /**
   * Where the command runs its statements: the database, or the transaction that also stores
   * the answer of an Idempotency-Key (or holds an import's line). Services open their own (nested)
   * transactions on it.
   */
  db: Executor;
  deps: CommandDeps;
  log: FastifyBaseLogger;
  now: Date;
  /** The target row, loaded and authorised before the command runs (operations with a target). */
  target: T;
  /** The rows of the parents the path names, by kind, loaded in the same statement. */
  parents: PR;
  /** The second resources acted on, by the names of the declaration (absent when not acted on). */
  second: Record<string, Record<string, unknown> | undefined>;
  /** For operations declaring a scope: the WHERE clause of the caller's grants (undefined: any). */
  scope: SQL | undefined;
  /** For operations declaring a scope: equal for callers whose `scope` is the same clause. */
  scopeKey: string | undefined;
  /** The values of the target reference's `extras`, read in the authorising statement (by name). */
  extras: X;
  /** The version of the operation's `listVersion` family, read in the authorising statement. */
  listVersion: string | undefined;
}

/** What an HTTP-only handler sees besides a command's context: the request, the reply and the application. */
export interface HttpContext {
  req: FastifyRequest;
  reply: FastifyReply;
  app: AppDeps;
}

/** The context of an operation with every field: its handler's view, over HTTP. */
export type OperationContext<T = Record<string, unknown>> = CommandContext<T> & HttpContext;

/**
 * The context the registry gives any operation (src/http/operation.ts, AnyOperation): the rows
 * it resolved as records (of the kinds the declaration names, whose types it checked:
 * `defineOperation`), and no caller for a public operation (only HTTP-only handlers are public,
 * and none of them reads `caller`).
 */
export type AnyCommandContext = Omit<
  CommandContext<Record<string, unknown>, Authorised['parents'], Record<string, unknown>>,
  'caller'
> & { caller: Caller | undefined };

/** The context of one call from its authorisation, for any operation's command. */
export function commandContext(
  deps: AppDeps,
  auth: Authorised | undefined,
  db: Executor,
  log: FastifyBaseLogger,
  now: Date,
): AnyCommandContext {
  return {
    caller: auth?.caller,
    db,
    deps: commandDeps(deps),
    log,
    now,
    target: auth?.target ?? {},
    parents: auth?.parents ?? {},
    second: auth?.second ?? {},
    scope: auth?.scope,
    scopeKey: auth?.scopeKey,
    extras: auth?.extras ?? {},
    listVersion: auth?.listVersion,
  };
}
