// Issue 28, point 9: lists of any size page on the server. listInvoices and listInvoicingFiles
// take an optional limit/offset: without them the answer is document 1's whole list as before;
// with them the page comes from SQL with the exact total, whatever the filters.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { buildInvoiceWorld, call, I, runPeriod, S, type InvoiceWorld } from './invoices.fixture.ts';

let t: TestApp;
let w: InvoiceWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildInvoiceWorld(t);
  expect((await runPeriod(t, '2026-11')).statusCode).toBe(200);
  t.clock.advance(60_000);
  expect((await runPeriod(t, '2026-09')).statusCode).toBe(200);
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await call(t)('GET', url, t.superToken);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ids = (body: { data: { id: string }[] }) => body.data.map((x) => x.id);

describe('issue 28, point 9: listInvoices pages on the server', () => {
  it('without limit or offset the answer is the whole list, total = limit = its length, offset 0', async () => {
    const body = await get(`${S}/companies/${w.dr}/invoices`);
    expect(body.data).toHaveLength(2);
    expect(body).toMatchObject({ total: 2, limit: 2, offset: 0 });
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'offset', 'total']);
  });

  it('with limit/offset: the page in the same order as the whole list, and the exact total', async () => {
    const whole = ids(await get(`${S}/companies/${w.dr}/invoices?format=full`));
    const first = await get(`${S}/companies/${w.dr}/invoices?format=full&limit=1`);
    expect(first).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(ids(first)).toEqual(whole.slice(0, 1));
    expect(first.data[0].invoiceItems.length).toBeGreaterThan(0);
    const second = await get(`${S}/companies/${w.dr}/invoices?limit=1&offset=1`);
    expect(second).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(ids(second)).toEqual(whole.slice(1, 2));
    const beyond = await get(`${S}/companies/${w.dr}/invoices?limit=5&offset=7`);
    expect(beyond).toMatchObject({ data: [], total: 2, limit: 5, offset: 7 });
  });

  it("bad values fall back as the other lists' do: non-numeric limit is 100, too large 1000, a negative offset 0", async () => {
    expect(await get(`${S}/companies/${w.dr}/invoices?limit=abc`)).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(await get(`${S}/companies/${w.dr}/invoices?limit=5000&offset=-3`)).toMatchObject({
      limit: 1000,
      offset: 0,
    });
    expect(await get(`${S}/companies/${w.dr}/invoices?offset=1`)).toMatchObject({ total: 2, limit: 100, offset: 1 });
  });
});

describe('issue 28, point 9: listInvoicingFiles pages on the server', () => {
  it('without limit or offset the answer is the whole list, total = limit = its length, offset 0', async () => {
    const body = await get(`${I}/invoices?companyId=${w.dr}`);
    expect(body.data.length).toBeGreaterThan(2);
    expect(body).toMatchObject({ total: body.data.length, limit: body.data.length, offset: 0 });
  });

  it('filters combine with paging: the pages of a filter are the filtered list cut, the total is the filtered count', async () => {
    const filter = `companyId=${w.dr}&billingPeriod=2026-11`;
    const whole = ids(await get(`${I}/invoices?${filter}`));
    expect(whole.length).toBeGreaterThan(1);
    const pages: string[] = [];
    for (let offset = 0; offset < whole.length; offset += 2) {
      const page = await get(`${I}/invoices?${filter}&limit=2&offset=${offset}`);
      expect(page).toMatchObject({ total: whole.length, limit: 2, offset });
      pages.push(...ids(page));
    }
    expect(pages).toEqual(whole);
    const all = await get(`${I}/invoices?limit=1`);
    expect(all.total).toBe((await get(`${I}/invoices`)).data.length);
  });
});
