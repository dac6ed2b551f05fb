import { createTestApp, bearer } from './test/support/harness.ts';
const t = await createTestApp({ build: { logger: { level: 'error' } } });
const r = await t.inject({ method: 'GET', url: '/api/svc/admin/v1.0/companies?limit=1000&bpId=000000000000000000000000', headers: bearer(t.superToken) });
console.log(r.statusCode, r.body.slice(0, 800));
await t.close();
