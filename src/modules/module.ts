// What a module brings to the service: its operations, its section of the policy table, its
// errors and its kinds of target. src/modules/index.ts lists the modules and installs them;
// adding a module touches that list and nothing else global. Its tables live in its own
// `*.tables.ts` files, which drizzle-kit reads (drizzle.config.ts) for the one migration folder.
import type { FastifyInstance } from 'fastify';
import type { AnyOperation } from '../http/operation.ts';
import type { AppDeps } from '../http/context.ts';
import type { Db } from '../db/client.ts';
import type { PolicyEntry } from '../authz/grant.ts';
import { registerPolicy } from '../authz/policy.ts';
import { checkTargetChains, registerTargets, type TargetKind } from '../authz/targets.ts';
import { registerErrors, type ErrorEntry } from '../errors/catalogue.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { XmppPresence, XmppTransport } from '../xmpp/transport.ts';
import type { JobDeps } from '../background.ts';

export type { JobDeps };

export interface ModuleDef {
  name: string;
  operations: readonly AnyOperation[];
  policy: Record<string, PolicyEntry>;
  errors?: Record<string, ErrorEntry>;
  targets?: Record<string, TargetKind>;
  /** First-start data of the module, run at every start in the order of the modules; idempotent. */
  seed?: (db: Db) => Promise<void>;
  /** Request hooks of the module, added to the application before the routes. */
  hooks?: (app: FastifyInstance, deps: AppDeps) => void;
  /** The module's kinds of job (and their schedules), defined on the queue at every start of the background (src/background.ts), once the queue runs. */
  jobs?: (queue: JobQueue, deps: JobDeps) => Promise<void>;
  /** What the module does with a presence sent to the service's XMPP address (src/background.ts hands it every one). */
  presence?: (presence: XmppPresence, deps: JobDeps) => Promise<void>;
  /** What the module does each time the instance's XMPP connection opens (src/background.ts). */
  xmppOnline?: (deps: JobDeps & { xmpp: XmppTransport }) => Promise<void>;
}

export const defineModule = (m: ModuleDef): ModuleDef => m;

/**
 * Installs the modules: their errors join the catalogue, their policy sections the table and
 * their kinds the targets, refusing anything declared twice; every operation must have a
 * policy entry of its own module.
 */
export function installModules(modules: readonly ModuleDef[]): AnyOperation[] {
  const operations: AnyOperation[] = [];
  const ids = new Set<string>();
  for (const m of modules) {
    registerErrors(m.name, m.errors ?? {});
    registerPolicy(m.name, m.policy);
    registerTargets(m.name, m.targets ?? {});
    for (const op of m.operations) {
      if (ids.has(op.operationId)) throw new Error(`operation ${op.operationId} (${m.name}) is declared twice`);
      if (!m.policy[op.operationId])
        throw new Error(`operation ${op.operationId} of module ${m.name} has no entry in its policy section`);
      ids.add(op.operationId);
      operations.push(op);
    }
  }
  // Every kind's chain of parents names installed kinds, once each.
  checkTargetChains();
  return operations;
}
