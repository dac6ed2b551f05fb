// Issue 13, point 6: liveness, readiness, request ids and Prometheus metrics.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { captureLog } from '../support/log-capture.ts';
import { startMetricsServer } from '../../src/http/metrics.ts';
import type { AddressInfo } from 'node:net';

const A = '/api/svc/admin/v1.0';

describe('issue 13, point 6: health, readiness, request ids, metrics', () => {
  let t: TestApp;
  const captured = captureLog();
  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      build: { logger: { level: 'info', stream: { write: (l: string) => captured.lines.push(JSON.parse(l)) } } },
    });
  });
  afterAll(() => t.close());

  it('GET /health answers without the database; GET /ready checks database, migrations and queue', async () => {
    expect((await t.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok' } });
  });

  it('a well-formed X-Request-Id is kept, returned, and on the log lines of its request', async () => {
    const res = await t.app.inject({
      url: `${A}/companies`,
      headers: { authorization: `Bearer ${t.superToken}`, 'x-request-id': 'lb-7f3a.42' },
    });
    expect(res.headers['x-request-id']).toBe('lb-7f3a.42');
    const lines = captured.lines.filter((l) => l.reqId === 'lb-7f3a.42');
    // One line per request (docs/operations.md, Logs), with what an operator looks for.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: `${A}/companies`, remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0].responseTime).toBe('number');
  });

  it('a malformed or absent X-Request-Id is replaced by a generated one, on errors too', async () => {
    const bad = await t.app.inject({ url: '/nowhere', headers: { 'x-request-id': 'a b<script>' } });
    expect(bad.statusCode).toBe(404);
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await t.app.inject({ url: `${A}/companies` });
    expect(none.statusCode).toBe(401);
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Before routing (a malformed URL): the framework error carries one as well.
    const malformed = await t.app.inject({ url: `${A}/companies/%E0%A4%A` });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['x-request-id']).toBeTruthy();
  });

  it('GET /metrics counts requests by operation and status, with duration histograms and the backlog', async () => {
    await t.app.inject({ url: `${A}/companies/nope`, headers: { authorization: `Bearer ${t.superToken}` } });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/svc_http_requests_total\{operation="getCompany",method="GET",status="404"\} 1/);
    // The answer is in the histogram: its count, and the last bucket (the bucket a time falls in
    // depends on how loaded the machine is, which a test cannot hold).
    expect(res.body).toMatch(/svc_http_request_duration_seconds_count\{operation="getCompany",method="GET"\} 1/);
    expect(res.body).toMatch(
      /svc_http_request_duration_seconds_bucket\{le="\+Inf",operation="getCompany",method="GET"\} 1/,
    );
    expect(res.body).toMatch(/svc_outbox_events|svc_jobs/);
    expect(res.body).toContain('svc_process_resident_memory_bytes');
  });

  it('/ready answers 503 naming the database when it cannot be reached', async () => {
    const other = await createTestApp();
    await other.deps.database.close();
    const res = await other.app.inject({ url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'not ready', checks: { database: 'not reachable' } });
    await other.app.close();
  });

  it('METRICS_PORT: /metrics moves to its own port, off the API', async () => {
    const config = { ...t.deps.config, metrics: { enabled: true, port: 0 } };
    const moved = await createTestApp({ config: { metrics: { enabled: true, port: 1 } } });
    expect((await moved.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    const server = await startMetricsServer({ ...config, host: '127.0.0.1' }, moved.deps);
    const { port } = server.address() as AddressInfo;
    await moved.app.inject({ url: '/health' });
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('svc_http_requests_total');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    server.close();
    await moved.close();
  });

  it('METRICS=false: no /metrics', async () => {
    const off = await createTestApp({ config: { metrics: { enabled: false, port: undefined } } });
    expect((await off.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    await off.close();
  });
});
