// The ceiling of the benchmark (scripts/bench.ts): a bare Fastify + pg server that verifies the
// same JWT as the service (fast-jwt, HS256, the signing key read from the same database, the same
// verifier options) and answers, for the same request path, the very JSON body the service
// answered, read by key from a table that holds it (bench_ceiling_answers, filled by the benchmark
// from the service's own answers before the cases run). No session check, authorisation,
// envelope building, validation or serialisation: one indexed read of a prepared text. Whatever
// the service does beyond this costs requests per second; the benchmark prints the service's
// figures as a ratio to these (the strict ceiling: the same bytes out, the least work in).
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

const ANSWER = { name: 'answer', text: 'SELECT body FROM bench_ceiling_answers WHERE path = $1' };

const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));

app.get('/*', async (req, reply) => {
  if (!authorised(req, reply)) return reply;
  const { rows } = await pool.query<{ body: string }>({ ...ANSWER, values: [req.url] });
  if (!rows[0]) return reply.code(404).send({ error: 'not found' });
  return reply.type('application/json; charset=utf-8').send(rows[0].body);
});

const close = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGINT', () => void close());
process.on('SIGTERM', () => void close());

await app.listen({ port, host });
