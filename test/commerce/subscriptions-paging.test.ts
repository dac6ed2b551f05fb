// Issue 28, point 9: lists of any size page on the server. listSubscriptions takes an optional
// limit/offset: without them the answer is document 1's whole list as before; with them the page
// comes from SQL with the exact total, showTerminated and the format included.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import type { TestApp } from '../support/harness.ts';
import { subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { addDefaultSubscription } from '../../src/modules/commerce/commerce.api.ts';
import { startWorld, caller, S, waitFor, type World } from './subscriptions.fixture.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;
const url = () => `${S}/companies/${w.ecVad}/subscriptions`;

beforeAll(async () => {
  ({ t, call, w } = await startWorld());
  await addDefaultSubscription(t.db, w.ecVad, t.clock.now());
  for (const body of [
    { offerId: w.offers.flat },
    { offerId: w.offers.free, maxNumberUsers: 2 },
    { offerId: w.offers.media },
  ]) {
    t.clock.advance(1000);
    const res = await call('POST', url(), body, w.vadFinance.token);
    expect(res.statusCode, res.body).toBe(201);
    // Settled first, so that the pages and the whole list compared below see the same rows.
    await waitFor(t, w.ecVad, res.json().data.id, (s) => s.syncOngoing === false);
  }
  // One of them terminated: only showTerminated=true lists it.
  const [last] = await t.db.select().from(subscriptions).where(eq(subscriptions.offerId, w.offers.media));
  await t.db.update(subscriptions).set({ status: 'terminated' }).where(eq(subscriptions.id, last.id));
});
afterAll(() => t.close());

const get = async (qs: string) => {
  const res = await call('GET', `${url()}${qs}`, undefined, w.vadFinance.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ids = (body: { data: { id: string }[] }) => body.data.map((s) => s.id);

describe('issue 28, point 9: listSubscriptions pages on the server', () => {
  it('without limit or offset the answer is the whole list, total = limit = its length, offset 0', async () => {
    const body = await get('');
    expect(body.data).toHaveLength(3);
    expect(body).toMatchObject({ total: 3, limit: 3, offset: 0 });
    const all = await get('?showTerminated=true');
    expect(all).toMatchObject({ total: 4, limit: 4, offset: 0 });
  });

  it('with limit/offset: the pages cut the whole list in its order, with the exact total; showTerminated and format combine', async () => {
    for (const qs of ['?format=full', '?format=full&showTerminated=true']) {
      const whole = await get(qs);
      const pages: string[] = [];
      for (let offset = 0; offset < whole.data.length; offset += 2) {
        const page = await get(`${qs}&limit=2&offset=${offset}`);
        expect(page).toMatchObject({ total: whole.data.length, limit: 2, offset });
        expect(page.data).toEqual(whole.data.slice(offset, offset + 2));
        pages.push(...ids(page));
      }
      expect(pages).toEqual(ids(whole));
    }
    expect(await get('?limit=2&offset=9')).toMatchObject({ data: [], total: 3, limit: 2, offset: 9 });
  });

  it("bad values fall back as the other lists' do: non-numeric limit is 100, a negative offset 0", async () => {
    expect(await get('?limit=x&offset=-1')).toMatchObject({ total: 3, limit: 100, offset: 0 });
    expect(await get('?limit=0')).toMatchObject({ total: 3, limit: 100, offset: 0 });
  });
});
