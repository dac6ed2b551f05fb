// Issue 9, the 5xx answers found by probing the service from outside, each kept from coming back:
//   - an upload without an image body (no body, an empty one, a form without a file), over a
//     real connection too: 400, never a handler reading a body that is not there;
//   - customData nested 10,000 levels deep: 400 before any work (it overflowed the stack while
//     saved; the bound is src/http/json-body.ts, test/http/input-limits.test.ts covers its edges);
//   - a NUL byte in a list filter (and in any text parameter) on the embedded database: no
//     literal can carry it to PGlite's EXECUTE, so it takes the bound path and the database
//     refuses it as bad input: 400 (src/db/literal.ts, src/db/client.ts). Every text query
//     parameter of every list of the OpenAPI document gets one, so new lists are covered.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { seedSubscriber } from '../pbx/fixtures.ts';
import { postCsv } from '../imports/support.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { documentOperations, resolver } from '../support/fuzz/document.ts';

const COMPANIES = '/api/svc/admin/v1.0/companies';
let t: TestApp;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
});
afterAll(() => t.close());

function expect400(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(400);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body, what).toMatchObject({ errorCode: 400, errorDetails: expect.any(Object) });
}

/** One request over a real connection; the status and body of its answer. */
function overSocket(port: number, request: string): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('close', () =>
      resolve({ statusCode: Number(data.split(' ')[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4) }),
    );
  });
}

describe('issue 9: the 5xx defects found from outside answer 400', () => {
  it('issue 9, defect "uploads without an image body": no body, an empty body, a form without a file give 400 for the avatar and the banner, in process and over a connection', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    for (const kind of ['avatar', 'banner']) {
      const url = `${COMPANIES}/${companyId}/${kind}`;
      const send = (headers: Record<string, string>, payload?: string): Promise<LightMyRequestResponse> =>
        t.inject({
          method: 'POST',
          url,
          headers: { ...bearer(t.superToken), ...headers },
          ...(payload !== undefined ? { payload } : {}),
        });
      expect400(await send({}), `${kind}: no body, no type`);
      expect400(await send({ 'content-type': 'image/png' }), `${kind}: image/png, no body`);
      expect400(
        await send({ 'content-type': 'image/png', 'content-length': '0' }, ''),
        `${kind}: image/png, Content-Length 0`,
      );
      expect400(
        await send(
          { 'content-type': 'multipart/form-data; boundary=b' },
          '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--\r\n',
        ),
        `${kind}: a form without a file`,
      );
      const head = `POST ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.superToken}\r\nConnection: close\r\n`;
      expect400(
        await overSocket(port, `${head}Content-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
        `${kind}: chunked, no chunk`,
      );
      expect400(await overSocket(port, `${head}Content-Length: 0\r\n\r\n`), `${kind}: Content-Length 0, no type`);
    }
    const [row] = await t.db
      .select({ a: companies.lastAvatarUpdateDate, b: companies.lastBannerUpdateDate })
      .from(companies)
      .where(eq(companies.id, companyId));
    expect(row).toEqual({ a: null, b: null });
  });

  it('issue 9, defect "customData nested 10,000 levels deep": 400 at creation, on update and on setCompanyCustomData; nothing stored', async () => {
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const json = { ...bearer(t.superToken), 'content-type': 'application/json' };
    expect400(
      await t.app.inject({
        method: 'POST',
        url: COMPANIES,
        headers: json,
        payload: `{"name":"Deep Inc","customData":${deep}}`,
      }),
      'createCompany',
    );
    expect400(
      await t.app.inject({
        method: 'PUT',
        url: `${COMPANIES}/${companyId}`,
        headers: json,
        payload: `{"customData":${deep}}`,
      }),
      'updateCompany',
    );
    expect400(
      await t.app.inject({
        method: 'PUT',
        url: `${COMPANIES}/${companyId}/custom-data`,
        headers: json,
        payload: `{"customData":${deep}}`,
      }),
      'setCompanyCustomData',
    );
    const [row] = await t.db
      .select({ customData: companies.customData })
      .from(companies)
      .where(eq(companies.id, companyId));
    expect(row.customData).toBeNull();
    expect(await t.db.$count(companies, eq(companies.name, 'Deep Inc'))).toBe(0);
  });

  it('issue 9, defect "a NUL byte in a list filter": every text query parameter of every list answers 400 or a page, never 5xx', async () => {
    const spec = t.app.swagger() as unknown as Record<string, unknown>;
    const resolve = resolver(spec);
    const lists = documentOperations(spec).filter(
      (op) => op.method === 'GET' && op.query.some((q) => q.name === 'limit'),
    );
    expect(lists.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['listCompanies', 'listUsers', 'listAllSites']),
    );
    const org = await t.inject({
      method: 'POST',
      url: '/api/svc/admin/v1.0/organisations',
      headers: bearer(t.superToken),
      payload: { name: 'NUL organisation' },
    });
    const site = await t.inject({
      method: 'POST',
      url: '/api/svc/admin/v1.0/sites',
      headers: bearer(t.superToken),
      payload: { companyId, name: 'NUL site' },
    });
    const system = await t.inject({
      method: 'POST',
      url: '/api/svc/admin/v1.0/systems',
      headers: bearer(t.superToken),
      payload: { siteId: site.json().data.id, name: 'NUL system' },
    });
    // The lists under a CloudPBX (document 2) name a CloudPBX as their systemId, and a subscriber of it.
    const pbx = await t.inject({
      method: 'POST',
      url: '/api/svc/vcpprovisioning/v1.0/cloudpbxs',
      headers: bearer(t.superToken),
      payload: { companyId, numberingPrefixes: ['2'], numberingDigits: 3 },
    });
    const pbxId: string = pbx.json().data.id;
    const ids: Record<string, string> = {
      companyId,
      organisationId: org.json().data.id,
      siteId: site.json().data.id,
      systemId: system.json().data.id,
      phoneNumberId: await seedSubscriber(t, pbxId, (await makeUser(t, companyId)).id, '2001'),
      // The per-line report of an import pages on request (issue 28, point 9): an import of its own
      // (its report exists from the start, whether or not its job has run).
      reqId: (
        await postCsv(t, t.superToken, '/users/imports', 'loginEmail,firstName\nnul-list@import.test,Nul\n', {
          companyId,
        })
      ).json().data.reqId,
    };
    // Issue 26, point 5: only the company_admin of the CloudPBX's company consults its recordings.
    const pbxAdmin = await makeUser(t, companyId, ['company_admin']);
    const tokenFor = (operationId: string) => (operationId === 'listRecordings' ? pbxAdmin.token : t.superToken);
    let sent = 0;
    for (const op of lists) {
      const underPbx = op.path.includes('/cloudpbxs/');
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        underPbx && name === 'systemId' ? pbxId : (ids[name] ?? 'no-fixture'),
      );
      for (const q of op.query) {
        const s = resolve(q.schema);
        const text =
          s.type === 'string' ||
          (Array.isArray(s.anyOf) && (s.anyOf as { type?: string }[]).some((b) => b.type === 'string'));
        if (!text) continue;
        for (const value of ['%00', 'a%00b', 'x,%00']) {
          const res = await t.inject({
            method: 'GET',
            url: `${path}?${q.name}=${value}`,
            headers: bearer(tokenFor(op.operationId)),
          });
          sent++;
          expect([200, 400], `${op.operationId} ${q.name}=${value}: ${res.body.slice(0, 300)}`).toContain(
            res.statusCode,
          );
        }
      }
    }
    expect(sent).toBeGreaterThan(30);
  });
});
