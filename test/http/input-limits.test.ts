// Issue 9, point 3: bounds on what a request may hold, each refused with 400 before any work.
//   - JSON bodies: at most 32 levels of nesting, at most 10,000 members in any list or object
//     (src/http/json-body.ts), checked on the text before it is parsed;
//   - every list of a request schema in the OpenAPI document declares maxItems, and every
//     free-form object maxProperties (so a new operation cannot forget them);
//   - customData: at most 100 keys of at most 64 characters.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../../src/http/json-body.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { documentOperations, resolver, type Schema } from '../support/fuzz/document.ts';

const COMPANIES = '/api/svc/admin/v1.0/companies';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const nested = (levels: number, inner = '1') => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
const list = (n: number) => `[${Array.from({ length: n }, () => '1').join(',')}]`;

async function storedCustomData(id: string) {
  const [row] = await t.db.select({ customData: companies.customData }).from(companies).where(eq(companies.id, id));
  return row.customData;
}

describe('issue 9, point 3: bounds on request bodies', () => {
  it('issue 9, point 3: the depth and member counts are read outside strings only, one level per list or object', () => {
    expect(jsonShapeProblem(nested(MAX_JSON_DEPTH - 1))).toBeUndefined(); // 31 objects
    expect(jsonShapeProblem(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`)).toBeUndefined(); // 32
    expect(jsonShapeProblem(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ maxDepth: MAX_JSON_DEPTH });
    expect(jsonShapeProblem(JSON.stringify({ a: '['.repeat(1000) + ','.repeat(20_000) }))).toBeUndefined();
    expect(jsonShapeProblem(JSON.stringify({ a: 'x\\"[[[[' }))).toBeUndefined();
    expect(jsonShapeProblem(list(MAX_JSON_MEMBERS))).toBeUndefined();
    expect(jsonShapeProblem(list(MAX_JSON_MEMBERS + 1))).toMatchObject({ maxMembers: MAX_JSON_MEMBERS });
  });

  it('issue 9, point 3: a body nested deeper than 32 levels, or with a list of more than 10,000 members, is refused with 400 (400022) and nothing changes', async () => {
    const id = await makeCompany(t);
    for (const customData of [nested(MAX_JSON_DEPTH), nested(10_000), `{"a":${list(MAX_JSON_MEMBERS + 1)}}`]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `${COMPANIES}/${id}/custom-data`,
        headers: { ...bearer(t.superToken), 'content-type': 'application/json' },
        payload: `{"customData":${customData}}`,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ errorDetailsCode: 400022, errorDetails: expect.any(Object) });
    }
    expect(await storedCustomData(id)).toBeNull();
    // Just under the bound is accepted and stored whole.
    const ok = await t.app.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}/custom-data`,
      headers: { ...bearer(t.superToken), 'content-type': 'application/json' },
      payload: `{"customData":${nested(MAX_JSON_DEPTH - 2)}}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(JSON.stringify(await storedCustomData(id))).toBe(nested(MAX_JSON_DEPTH - 2));
  });

  it('issue 9, point 3: customData takes at most 100 keys of at most 64 characters', async () => {
    const id = await makeCompany(t);
    const put = (customData: unknown) =>
      t.inject({
        method: 'PUT',
        url: `${COMPANIES}/${id}/custom-data`,
        headers: bearer(t.superToken),
        payload: { customData },
      });
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect((await put(keys(100))).statusCode).toBe(200);
    const tooMany = await put(keys(101));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errorDetailsCode).toBe(400000);
    expect((await put({ ['k'.repeat(65)]: 1 })).statusCode).toBe(400);
    expect(Object.keys((await storedCustomData(id)) as object)).toHaveLength(100);
    // At creation and on update too.
    expect(
      (
        await t.inject({
          method: 'POST',
          url: COMPANIES,
          headers: bearer(t.superToken),
          payload: { name: 'Too many keys', customData: keys(101) },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${COMPANIES}/${id}`,
          headers: bearer(t.superToken),
          payload: { customData: keys(101) },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('issue 9, point 3: every list of a request body or parameter declares maxItems, every free-form object maxProperties (read from the OpenAPI document)', () => {
    const spec = t.app.swagger() as unknown as Record<string, unknown>;
    const resolve = resolver(spec);
    const missing: string[] = [];
    const walk = (s: Schema | undefined, where: string, depth = 0) => {
      if (!s || depth > 20) return;
      const x = resolve(s);
      if (x.type === 'array' && typeof x.maxItems !== 'number') missing.push(`${where}: a list without maxItems`);
      const freeForm =
        x.type === 'object' &&
        (x.additionalProperties === true ||
          (x.additionalProperties === undefined && !x.properties && !x.patternProperties));
      if (freeForm && typeof x.maxProperties !== 'number')
        missing.push(`${where}: a free-form object without maxProperties`);
      for (const [k, v] of Object.entries((x.properties ?? {}) as Record<string, Schema>))
        walk(v, `${where}.${k}`, depth + 1);
      for (const b of [...((x.anyOf ?? []) as Schema[]), ...((x.oneOf ?? []) as Schema[])]) walk(b, where, depth + 1);
      if (x.items && typeof x.items === 'object') walk(x.items as Schema, `${where}[]`, depth + 1);
    };
    const ops = documentOperations(spec);
    for (const op of ops) {
      walk(op.body?.json, `${op.operationId} body`);
      walk(op.body?.form, `${op.operationId} form`);
      for (const q of op.query) walk(q.schema, `${op.operationId} query ${q.name}`);
    }
    expect(ops.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
