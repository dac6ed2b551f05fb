// The ceiling of the benchmark (scripts/bench.ts): a bare Fastify + pg server that runs the same
// SQL as the service for `getUser` and a filtered `listUsers` page, with no authentication, no
// envelope, no validation and no response schema. Whatever the service does beyond this costs
// requests per second; the benchmark prints the service's figures as a ratio to these.
//
// Run by the benchmark as a child process: DATABASE_URL, PORT, HOST; POOL_SIZE (default 10, the
// pool size of the service, src/db/client.ts).
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('bench-ceiling: DATABASE_URL is required');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8090);
const host = process.env.HOST ?? '127.0.0.1';

const pool = new pg.Pool({ connectionString: url, max: Number(process.env.POOL_SIZE ?? 10) });
pool.on('error', () => undefined);

// The statements the service sends (drizzle's text, as printed by `.toSQL()`): the target load of
// authorizeTarget (src/authz/evaluate.ts) and the page + count of listUserRows (users.repo.ts).
const COLUMNS = '"id", "company_id", "login_email", "password_hash", "first_name", "last_name", "roles", "admin_type", "site_id", "language", "timezone", "is_terminated", "creation_date", "last_update_date"';
const BY_ID = `select ${COLUMNS}, (TRUE) from "users" where "users"."id" = $1 limit $2`;
const PAGE = `select ${COLUMNS} from "users" where "users"."company_id" = $1 order by "users"."last_name" asc, "users"."id" asc limit $2`;
const COUNT = 'select count(*)::int from "users" where "users"."company_id" = $1';

const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));

app.get<{ Params: { id: string } }>('/users/:id', async (req, reply) => {
  const { rows } = await pool.query(BY_ID, [req.params.id, 1]);
  if (!rows[0]) return reply.code(404).send({ error: 'not found' });
  return rows[0];
});

app.get<{ Querystring: { companyId?: string; limit?: string } }>('/users', async (req) => {
  const limit = Number(req.query.limit ?? 100);
  const [page, count] = await Promise.all([
    pool.query(PAGE, [req.query.companyId, limit]),
    pool.query(COUNT, [req.query.companyId]),
  ]);
  return { data: page.rows, total: count.rows[0].count, limit, offset: 0 };
});

const close = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGINT', () => void close());
process.on('SIGTERM', () => void close());

await app.listen({ port, host });
