// The ceiling of the benchmark (scripts/bench.ts): a bare Fastify + pg server that verifies the
// same JWT as the service (fast-jwt, HS256, the signing key read from the same database, the same
// verifier options) and reads the same row by id (user, company, site) or the same page and count
// (listUsers), with no session check, authorisation, envelope, validation or response schema.
// Whatever the service does beyond this costs requests per second; the benchmark prints the
// service's figures as a ratio to these.
//
// Run by the benchmark as a child process: DATABASE_URL, PORT, HOST; POOL_SIZE (default 10, the
// pool size of the service, src/db/client.ts).
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createVerifier } from 'fast-jwt';
import pg from 'pg';
import { ISSUER } from '../src/shared/tokens.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('bench-ceiling: DATABASE_URL is required');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8090);
const host = process.env.HOST ?? '127.0.0.1';

const pool = new pg.Pool({ connectionString: url, max: Number(process.env.POOL_SIZE ?? 10) });
pool.on('error', () => undefined);

const { rows: keyRows } = await pool.query<{ value: string }>("SELECT value FROM server_keys WHERE name = 'jwt-hs256'");
if (!keyRows[0]) throw new Error('bench-ceiling: no signing key in the database (start the service once first)');
// The options of the service's verifier (src/shared/tokens.ts).
const verify = createVerifier({
  key: Buffer.from(keyRows[0].value, 'base64'),
  algorithms: ['HS256'],
  allowedIss: ISSUER,
  ignoreExpiration: true,
  cache: 10_000,
});

function authorised(req: FastifyRequest, reply: FastifyReply): boolean {
  const h = req.headers.authorization;
  try {
    if (!h?.startsWith('Bearer ')) throw new Error('no token');
    verify(h.slice(7));
    return true;
  } catch {
    void reply.code(401).send({ error: 'unauthorized' });
    return false;
  }
}

const USER = 'SELECT * FROM users WHERE id = $1';
const COMPANY = 'SELECT * FROM companies WHERE id = $1';
const SITE = 'SELECT * FROM sites WHERE id = $1';
const PAGE = 'SELECT * FROM users WHERE company_id = $1 ORDER BY last_name ASC, id ASC LIMIT $2';
const COUNT = 'SELECT count(*)::int AS n FROM users WHERE company_id = $1';

const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));

for (const [path, text] of [
  ['/users/:id', USER],
  ['/companies/:id', COMPANY],
  ['/sites/:id', SITE],
] as const) {
  app.get<{ Params: { id: string } }>(path, async (req, reply) => {
    if (!authorised(req, reply)) return reply;
    const { rows } = await pool.query(text, [req.params.id]);
    if (!rows[0]) return reply.code(404).send({ error: 'not found' });
    return { data: rows[0] };
  });
}

app.get<{ Querystring: { companyId?: string; limit?: string } }>('/users', async (req, reply) => {
  if (!authorised(req, reply)) return reply;
  const limit = Number(req.query.limit ?? 100);
  const [page, count] = await Promise.all([
    pool.query(PAGE, [req.query.companyId, limit]),
    pool.query<{ n: number }>(COUNT, [req.query.companyId]),
  ]);
  return { data: page.rows, total: count.rows[0].n, limit, offset: 0 };
});

const close = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGINT', () => void close());
process.on('SIGTERM', () => void close());

await app.listen({ port, host });
