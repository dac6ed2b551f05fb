// Issue 2, point 7: secrets (passwords, password hashes, tokens, application secrets) never
// appear in any log line, even at the most verbose level.
import { after as afterAll, before as beforeAll, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { createTestApp, basic, bearer, SUPERADMIN, type TestApp } from '../support/harness.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  t = await createTestApp({ build: { logger: { level: 'trace', stream } } });
});
afterAll(() => t.close());

it('no log line holds a password, a password hash, a token or an application secret', async () => {
  const created = await t.inject({
    method: 'POST',
    url: '/api/svc/admin/v1.0/users',
    headers: bearer(t.superToken),
    payload: { loginEmail: 'logged@example.com', password: 'Very-s3cret-pw' },
  });
  const token = await t.login('logged@example.com', 'Very-s3cret-pw');
  await t.inject({
    method: 'GET',
    url: '/api/svc/authentication/v1.0/login',
    headers: { authorization: basic('logged@example.com', 'Wrong-s3cret-pw') },
  });
  const app = (
    await t.inject({
      method: 'POST',
      url: '/api/svc/applications/v1.0/applications',
      headers: bearer(token),
      payload: { name: 'a' },
    })
  ).json().data;
  await t.inject({
    method: 'GET',
    url: '/api/svc/admin/v1.0/users',
    headers: { ...bearer(token), apikey: app.apiKey },
  });
  const [row] = await t.db.select().from(users).where(eq(users.id, created.json().data.id));
  const log = lines.join('');
  expect(lines.length).toBeGreaterThan(5);
  for (const secret of [
    'Very-s3cret-pw',
    'Wrong-s3cret-pw',
    SUPERADMIN.password,
    row.passwordHash,
    token,
    t.superToken,
    app.appSecret,
    app.apiKey,
  ]) {
    expect(log).not.toContain(secret);
  }
});
