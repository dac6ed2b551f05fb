// A job runs an operation's command for a caller it names (an import's line acts for the
// administrator who asked for the import: document 3, Import). Nothing about the operation is
// written twice: the same input checks as its HTTP route (src/http/input.ts), the same
// authorisation statement and decision for that caller and those ids (src/http/authorise.ts: the
// policy table, the relations, 404 for what he may not know, 403 for what he sees but may not do),
// the same references and the same command. What differs is only who calls: a user id instead of
// a token's session, and no HTTP request (no Idempotency-Key, no format, no envelope).
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.ts';
import { databaseOn } from '../db/raw.ts';
import { POLICY } from '../authz/policy.ts';
import { checkReferences } from '../authz/references.ts';
import { authorise, planOf } from './authorise.ts';
import { commandContext, type AppDeps } from './context.ts';
import { checkPart, withoutEmptyObjects } from './input.ts';
import type { AnyOperation } from './operation.ts';

/** The input of one call, as its HTTP request would carry it (path parameters, query, JSON body). */
export interface CommandCall {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface CommandRun {
  /** The user the job acts for: his roles and reach decide, as his token would. */
  callerId: string;
  /** Where the command's statements go: a transaction holds an import's line (all or nothing). */
  db?: Executor;
  log: FastifyBaseLogger;
}

/** A copy of a value, so that the checks (coercion, defaults, removal of unknown fields) change only the copy. */
const copy = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/**
 * Runs `op`'s command for `run.callerId` and returns its result (the `data` its HTTP answer would
 * carry, before format and envelope). Throws what the HTTP route would answer: an AppError
 * (src/errors/handler.ts, `errorOutcome`, gives its body), or the refusal of the input.
 */
export async function runCommand(
  deps: AppDeps,
  op: AnyOperation,
  call: CommandCall,
  run: CommandRun,
): Promise<unknown> {
  if (!op.command) throw new Error(`operation ${op.operationId} is HTTP only: a job cannot run it`);
  if (POLICY[op.operationId]?.kind === 'public')
    throw new Error(`operation ${op.operationId} is public: a job acts for a caller`);
  const params = checkPart(op.params, 'params', copy(call.params));
  const query = checkPart(op.query, 'querystring', copy(call.query));
  const checked = checkPart(op.body, 'body', copy(call.body));
  // The route table's rule for PUT: an empty nested object changes nothing.
  const body = op.method === 'PUT' ? withoutEmptyObjects(op.body, checked) : checked;
  const values = { params, query, body };
  const now = deps.now();
  const db = run.db ?? deps.database.db;
  // Authorised on the executor it is given: inside an import's line it sees what the line made
  // before (its user), and on the embedded database it does not wait for the session the line holds.
  const auth = await authorise(databaseOn(deps.database, db), now, op, planOf(op), { userId: run.callerId }, values);
  const received = { params, query, body, upload: undefined };
  const cmd = commandContext(deps, auth, db, run.log, now);
  const prepared = op.prepare ? await op.prepare(cmd, received) : undefined;
  const input = { ...received, prepared };
  if (op.references) await checkReferences(db, auth.caller, op.references, body, auth.target, op.method === 'PUT');
  return op.command(cmd, input);
}
