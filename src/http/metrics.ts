// Prometheus metrics (docs/operations.md, Metrics), on prom-client: requests by operation and status,
// their durations as histograms, the database pool, the backlog of jobs and events, and Node's
// own process metrics. Served at GET /metrics on the API's port, or on METRICS_PORT so that it
// need not be exposed with the API; METRICS=false turns it off. One registry per application
// (tests build several in one process).
import type { Server } from 'node:http';
import { nodeHttp } from '../shared/node-http.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppDeps } from './context.ts';
import type { Config } from '../config.ts';
import { backgroundCounts } from '../jobs/counts.ts';

const registries = new WeakMap<AppDeps, Registry>();

/** The operation a request was routed to (its operationId), else its route, else "unmatched". */
function operationOf(req: FastifyRequest): string {
  const schema = req.routeOptions.schema;
  return schema?.operationId ?? req.routeOptions.url ?? 'unmatched';
}

function registryFor(deps: AppDeps): Registry {
  const existing = registries.get(deps);
  if (existing) return existing;
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'svc_' });
  const { database } = deps;
  new Gauge({
    name: 'svc_db_pool_connections',
    help: 'Connections of the database server pool by state (absent on the embedded database)',
    labelNames: ['state'],
    registers: [register],
    collect() {
      const s = database.poolStats?.();
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  new Gauge({
    name: 'svc_db_hot_statements',
    help: 'Statements of the hot path (authorisation, list pages) sent and not yet answered, pipelined over their connections',
    registers: [register],
    collect() {
      const s = database.poolStats?.();
      if (s) this.set(s.pipelined.reduce((n, p) => n + p.inFlight, 0));
    },
  });
  // Filled by the jobs gauge's collect, which reads both counts in one pass.
  const outboxGauge = new Gauge({
    name: 'svc_outbox_events',
    help: 'Events of the outbox by state (pending, retrying, delivered)',
    labelNames: ['state'],
    registers: [register],
  });
  new Gauge({
    name: 'svc_jobs',
    help: 'Jobs of the queue by state',
    labelNames: ['state'],
    registers: [register],
    async collect() {
      const { jobs, outbox } = await backgroundCounts(database.db);
      this.reset();
      for (const [state, n] of Object.entries(jobs)) this.set({ state }, n);
      outboxGauge.reset();
      for (const [state, n] of Object.entries(outbox)) outboxGauge.set({ state }, n);
    },
  });
  registries.set(deps, register);
  return register;
}

/** Counts and times every answer; serves /metrics on the API unless METRICS_PORT moves it. */
export function installMetrics(app: FastifyInstance, deps: AppDeps): void {
  if (!deps.config.metrics.enabled) return;
  const register = registryFor(deps);
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by operation, method and status',
    labelNames: ['operation', 'method', 'status'],
    registers: [register],
  });
  const durations = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time from request to answer, by operation',
    labelNames: ['operation', 'method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  // The series of each operation, method and status, looked up once: prom-client otherwise hashes
  // the labels of every observation. Bounded: operations, methods and statuses are finite.
  const series = new Map<string, { count: Counter.Internal; time: Histogram.Internal<string> }>();
  app.addHook('onResponse', (req, reply, done) => {
    const operation = operationOf(req);
    const key = `${operation} ${req.method} ${reply.statusCode}`;
    let s = series.get(key);
    if (!s) {
      s = {
        count: requests.labels(operation, req.method, String(reply.statusCode)),
        time: durations.labels(operation, req.method),
      };
      series.set(key, s);
    }
    s.count.inc();
    s.time.observe(reply.elapsedTime / 1000);
    done();
  });
  if (deps.config.metrics.port) return;
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (_req, reply) => {
    reply.type(register.contentType);
    return register.metrics();
  });
}

/** /metrics on its own port (METRICS_PORT), on the API's host. */
export async function startMetricsServer(config: Config, deps: AppDeps): Promise<Server> {
  const register = registryFor(deps);
  const server = nodeHttp.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    register
      .metrics()
      .then((text) => res.writeHead(200, { 'Content-Type': register.contentType }).end(text))
      .catch(() => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'));
  });
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(config.metrics.port, config.host, resolve),
  );
  return server;
}
