// Issue 7, point 3: users carry jid_im, a JID on the configured user domain, given at creation
// whichever way the user is created, and shown from the medium format up.
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeUser } from '../support/factories.ts';
import { applyServiceSettings } from '../../src/xmpp/settings.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
  // What every start does with XMPP_USER_DOMAIN (main.ts, through the background's start).
  await applyServiceSettings(t.db, { xmpp: { ...t.deps.config.xmpp, userDomain: 'im.example.com' } });
});
after(() => t.close());

describe('jid_im', () => {
  it('is <user id>@<XMPP_USER_DOMAIN> for a user created through the API, shown in medium and full', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/svc/admin/v1.0/users',
      headers: bearer(t.superToken),
      payload: { loginEmail: 'jid@example.com', password: 'Passw0rd!' },
    });
    expect(res.statusCode).toBe(201);
    const { id, jid_im } = res.json().data;
    expect(jid_im).toBe(`${id}@im.example.com`);
    const medium = (
      await t.inject({
        method: 'GET',
        url: `/api/svc/admin/v1.0/users/${id}?format=medium`,
        headers: bearer(t.superToken),
      })
    ).json().data;
    expect(medium.jid_im).toBe(jid_im);
    const small = (
      await t.inject({
        method: 'GET',
        url: `/api/svc/admin/v1.0/users/${id}?format=small`,
        headers: bearer(t.superToken),
      })
    ).json().data;
    expect(small.jid_im).toBeUndefined();
  });

  it('is given to users created by any other path (a direct insert here)', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const [row] = await t.db.select({ jid: users.jidIm }).from(users).where(eq(users.id, u.id));
    expect(row.jid).toBe(`${u.id}@im.example.com`);
  });

  it('follows the configured domain for users created after it changes', async () => {
    await applyServiceSettings(t.db, { xmpp: { ...t.deps.config.xmpp, userDomain: 'chat.example.org' } });
    const u = await makeUser(t, t.defaultCompanyId);
    const [row] = await t.db.select({ jid: users.jidIm }).from(users).where(eq(users.id, u.id));
    expect(row.jid).toBe(`${u.id}@chat.example.org`);
  });
});
