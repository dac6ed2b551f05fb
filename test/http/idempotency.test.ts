// Issue 2, point 9: Idempotency-Key on every POST.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { count, sql } from 'drizzle-orm';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeUser } from '../support/factories.ts';
import { idempotencyKeys } from '../../src/http/idempotency.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { SUPERADMIN } from '../support/harness.ts';

const USERS = '/api/svc/admin/v1.0/users';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const usersNamed = async (email: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(users)
      .where(sql`${users.loginEmail} = ${email}`)
  )[0].n;
const post = (key: string, payload: object, token = t.superToken) =>
  t.inject({ method: 'POST', url: USERS, headers: { ...bearer(token), 'idempotency-key': key }, payload });

describe('Idempotency-Key', () => {
  it('the same key and body replay the stored response without a second effect', async () => {
    const body = { loginEmail: 'idem1@example.com', password: 'Passw0rd!' };
    const first = await post('k1', body);
    const second = await post('k1', body);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await usersNamed('idem1@example.com')).toBe(1);
  });

  it('the same key with another body gives 422', async () => {
    await post('k2', { loginEmail: 'idem2@example.com', password: 'Passw0rd!' });
    const res = await post('k2', { loginEmail: 'idem2b@example.com', password: 'Passw0rd!' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errorDetailsCode).toBe(422000);
    expect(await usersNamed('idem2b@example.com')).toBe(0);
  });

  it('a second request while the first still runs gives 409', async () => {
    // The first request's claim, as another instance holds it in the middle of its work.
    const [me] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(sql`'superadmin' = ANY(${users.roles})`);
    await t.db.insert(idempotencyKeys).values({
      scope: `user:${me.id}`,
      key: 'k3',
      requestHash: 'in-flight',
      state: 'running',
      createdAt: t.clock.now(),
    });
    const res = await post('k3', { loginEmail: 'idem3@example.com', password: 'Passw0rd!' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409002);
    expect(await usersNamed('idem3@example.com')).toBe(0);
  });

  it('two identical requests sent together have one effect', async () => {
    const body = { loginEmail: 'idem3b@example.com', password: 'Passw0rd!' };
    const results = await Promise.all([post('k3b', body), post('k3b', body)]);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    expect(await usersNamed('idem3b@example.com')).toBe(1);
  });

  it('keys are scoped to the caller: another caller with the same key acts on its own', async () => {
    const other = await makeUser(t, t.defaultCompanyId, ['company_admin']);
    await post('k4', { loginEmail: 'idem4@example.com', password: 'Passw0rd!' });
    const res = await post('k4', { loginEmail: 'idem4b@example.com', password: 'Passw0rd!' }, other.token);
    expect(res.statusCode).toBe(201);
  });

  it('an error response is replayed too, so a retried bad request stays the same answer', async () => {
    const body = { loginEmail: 'idem5@example.com', password: 'weak' };
    const first = await post('k5', body);
    expect(first.statusCode).toBe(400);
    expect((await post('k5', body)).body).toBe(first.body);
  });

  it('keys are kept 24 hours: after that the key is free for a new request', async () => {
    await post('k6', { loginEmail: 'idem6@example.com', password: 'Passw0rd!' });
    t.clock.advance(24 * 3600 * 1000 + 1000);
    t.superToken = await t.login(SUPERADMIN.email, SUPERADMIN.password);
    const res = await post('k6', { loginEmail: 'idem6b@example.com', password: 'Passw0rd!' });
    expect(res.statusCode).toBe(201);
    expect(await usersNamed('idem6b@example.com')).toBe(1);
  });

  it('without the header, POSTs are not deduplicated', async () => {
    const body = { loginEmail: 'idem7@example.com', password: 'Passw0rd!' };
    expect(
      (await t.inject({ method: 'POST', url: USERS, headers: bearer(t.superToken), payload: body })).statusCode,
    ).toBe(201);
    expect(
      (await t.inject({ method: 'POST', url: USERS, headers: bearer(t.superToken), payload: body })).statusCode,
    ).toBe(409);
  });
});

describe('issue 6, point 7: the stored answer commits with its effect', () => {
  it('a crash after the commit and before the answer: the retry replays the answer and the operation does not run twice', async () => {
    const db = t.deps.database.db;
    const original = db.transaction.bind(db);
    let crash = true;
    // The fault: the transaction commits, then the process "dies" before answering (the caller
    // sees a 500, as a client sees a dropped connection).
    db.transaction = (async (...args: Parameters<typeof original>) => {
      const result = await original(...args);
      if (crash) {
        crash = false;
        throw new Error('injected crash between commit and answer');
      }
      return result;
    }) as typeof db.transaction;
    try {
      const body = { loginEmail: 'idem-crash@example.com', password: 'Passw0rd!' };
      const first = await post('k-crash', body);
      expect(first.statusCode).toBe(500);
      expect(await usersNamed('idem-crash@example.com')).toBe(1);
      const retry = await post('k-crash', body);
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json().data.loginEmail).toBe('idem-crash@example.com');
      expect(await usersNamed('idem-crash@example.com')).toBe(1);
    } finally {
      db.transaction = original;
    }
  });

  it('a change that rolls back stores no success: the key is free for the retry, which then runs once', async () => {
    const db = t.deps.database.db;
    const original = db.transaction.bind(db);
    let fail = true;
    // The fault: the transaction fails at commit time; nothing of it stays, the answer included.
    db.transaction = (async (fn: Parameters<typeof original>[0], ...rest: unknown[]) =>
      original(
        async (tx) => {
          const r = await fn(tx);
          if (fail) {
            fail = false;
            throw new Error('injected failure before commit');
          }
          return r;
        },
        ...(rest as []),
      )) as typeof db.transaction;
    try {
      const body = { loginEmail: 'idem-rollback@example.com', password: 'Passw0rd!' };
      expect((await post('k-rollback', body)).statusCode).toBe(500);
      expect(await usersNamed('idem-rollback@example.com')).toBe(0);
      const retry = await post('k-rollback', body);
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(await usersNamed('idem-rollback@example.com')).toBe(1);
    } finally {
      db.transaction = original;
    }
  });
});
