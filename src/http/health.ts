// Liveness, readiness and request ids (docs/operations.md, Logs and Several instances behind a load balancer).
// - GET /health: the process answers (liveness; no database round trip).
// - GET /ready: the database answers, its migrations are those of this code, the job queue runs.
//   503 otherwise, naming what is not ready, so a load balancer sends nothing to an instance
//   that cannot serve.
// - X-Request-Id: a well-formed incoming id is kept (a proxy's or a client's), otherwise one is
//   made; it is returned on every answer and is on every log line of the request (Fastify's reqId).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { sql } from 'drizzle-orm';
import type { AppDeps } from './context.ts';
import { rowsOf } from '../db/raw.ts';
import { SOURCE_ROOT } from '../shared/source-root.ts';
import { field } from '../shared/json-values.ts';

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's genReqId: the incoming X-Request-Id when well formed, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The number of migrations of this code: the entries of drizzle-kit's journal. */
function migrationCount(): number {
  const journal: unknown = JSON.parse(readFileSync(new URL('db/migrations/meta/_journal.json', SOURCE_ROOT), 'utf8'));
  const entries = field(journal, 'entries');
  if (!Array.isArray(entries)) throw new Error('db/migrations/meta/_journal.json lists no entries');
  return entries.length;
}

const MIGRATIONS = migrationCount();

/** 'ok', else what failed. */
type Check = string;

async function readiness(deps: AppDeps): Promise<Record<string, Check>> {
  const checks: Record<string, Check> = {};
  try {
    const rows = rowsOf<{ n: number }>(
      await deps.database.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`),
    );
    checks.database = 'ok';
    const applied = rows[0]?.n ?? 0;
    checks.migrations = applied >= MIGRATIONS ? 'ok' : `${applied} of ${MIGRATIONS} applied`;
  } catch {
    checks.database = 'not reachable';
  }
  // Tests build applications without background work; a served instance always has it.
  if (deps.background) checks.queue = deps.background.queue.running() ? 'ok' : 'not running';
  return checks;
}

export function installHealth(app: FastifyInstance, deps: AppDeps): void {
  const opts = { schema: { hide: true }, config: { rateLimit: false } };
  app.get('/health', opts, async () => ({ status: 'ok' }));
  app.get('/ready', opts, async (_req, reply) => {
    const checks = await readiness(deps);
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}
