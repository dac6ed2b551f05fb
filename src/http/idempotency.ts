// Idempotency-Key on every POST: the same key and body replay the stored response without a
// second effect; the same key with another body gives 422; a request arriving while the first
// still runs gives 409. Keys are scoped to the caller (or the client address when there is no
// caller) and kept 24 hours. The rows live in the database so every instance agrees.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { idempotencyKeys } from './idempotency.tables.ts';
import { fail } from '../errors/catalogue.ts';
import type { Caller } from '../authz/roles.ts';
import type { AppDeps } from './context.ts';
import type { Executor } from '../db/client.ts';
import { isRecord, scalarText } from '../shared/json-values.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A 'running' row older than this belongs to a crashed instance and may be taken over. */
const STALE_RUNNING_MS = 5 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request claimed; `stored` once its answer is committed with its effect. */
    idempotency?: { scope: string; key: string; stored?: boolean };
  }
}

function requestHash(req: FastifyRequest): string {
  const h = createHash('sha256');
  h.update(req.method).update('\n').update(req.url).update('\n');
  h.update(typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body ?? null));
  return h.digest('hex');
}

/** Returns false when the reply has been sent from the store (a replay). */
export async function idempotencyBegin(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: Caller | undefined,
): Promise<boolean> {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return true;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key.length < 1 || key.length > 255)
    fail('VALIDATION_FAILED', { header: 'Idempotency-Key must have 1 to 255 characters' });
  const scope = caller ? `user:${caller.userId}` : `addr:${req.ip}`;
  const hash = requestHash(req);
  const db = deps.database.db;
  const now = deps.now();
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash: hash, state: 'running', createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length === 0) {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    if (!row) fail('IDEMPOTENCY_IN_PROGRESS');
    const expired = now.getTime() - row.createdAt.getTime() > IDEMPOTENCY_TTL_MS;
    const stale = row.state === 'running' && now.getTime() - row.createdAt.getTime() > STALE_RUNNING_MS;
    if (expired || stale) {
      // Take the key over: the earlier use no longer counts.
      await db
        .update(idempotencyKeys)
        .set({ requestHash: hash, state: 'running', createdAt: now, statusCode: null, body: null, headers: null })
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    } else {
      if (row.state === 'running') fail('IDEMPOTENCY_IN_PROGRESS');
      if (row.requestHash !== hash) fail('IDEMPOTENCY_KEY_REUSED');
      reply.header('Idempotent-Replayed', 'true');
      reply.headers(storedHeaders(row.headers));
      reply.code(row.statusCode ?? 200).send(row.body ?? '');
      return false;
    }
  }
  req.idempotency = { scope, key };
  return true;
}

/** The headers stored with an answer (a JSON object of texts, as the store below writes them). */
function storedHeaders(stored: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(stored))
    for (const [name, value] of Object.entries(stored)) if (typeof value === 'string') out[name] = value;
  return out;
}

/**
 * Stores a successful answer in the transaction of the change it records: both commit or
 * neither does, so a retry after a crash between the commit and the answer replays it.
 */
export async function idempotencyStore(
  tx: Executor,
  req: FastifyRequest,
  statusCode: number,
  body: string,
  contentType: string,
): Promise<void> {
  const claim = req.idempotency;
  if (!claim) return;
  await tx
    .update(idempotencyKeys)
    .set({ state: 'done', statusCode, body, headers: { 'content-type': contentType } })
    .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
}

/**
 * Stores the final answer of a request that claimed a key and failed before its effect (a
 * refusal is replayed too); a 5xx releases the key instead. An answer already committed with
 * its effect is left as it is, whatever happens after the commit.
 */
export function installIdempotency(app: FastifyInstance, deps: AppDeps): void {
  // Callback style: answers without a claim (nearly all) go on without a promise of their own.
  app.addHook('onSend', (req, reply, payload, done) => {
    const claim = req.idempotency;
    if (!claim || claim.stored || reply.getHeader('Idempotent-Replayed')) return done(null, payload);
    storeAnswer(deps, claim, reply, payload).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
}

async function storeAnswer(
  deps: AppDeps,
  claim: NonNullable<FastifyRequest['idempotency']>,
  reply: FastifyReply,
  payload: unknown,
): Promise<void> {
  const where = and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key));
  if (reply.statusCode >= 500) {
    // Only a claim whose effect did not commit is released: a 'done' row committed with its
    // effect stays, whatever failed after the commit.
    await deps.database.db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.state, 'running')));
    return;
  }
  const ct = reply.getHeader('content-type');
  await deps.database.db
    .update(idempotencyKeys)
    .set({
      state: 'done',
      statusCode: reply.statusCode,
      body: Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : scalarText(payload),
      headers: ct ? { 'content-type': String(ct) } : {},
    })
    .where(where);
}

/** Removes keys past their 24 hours; run at start and from time to time. */
export async function purgeIdempotencyKeys(deps: AppDeps): Promise<void> {
  await deps.database.db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(deps.now().getTime() - IDEMPOTENCY_TTL_MS)));
}
