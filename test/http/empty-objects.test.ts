// Issue 8, point 2 (route table, conventions): "In a PUT, an absent field or an empty nested
// object means 'no change'". A rule of the platform (src/http/empty-objects.ts): every PUT of the
// OpenAPI document is walked, and each of its object-valued body fields is set, then sent as {}:
// the answer must not change. New PUTs are covered as they appear; a PUT whose path needs a
// fixture this file does not know fails, saying which.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { newId } from '../../src/shared/ids.ts';

type Schema = Record<string, any>;
const COMPANIES = '/api/svc/admin/v1.0/companies';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The CloudPBX the last systemId fixture made (a child's fixture makes its child there). */
let lastSystemId = '';

/** How to make a value for each path parameter a PUT may have (each call: a fresh resource). */
const PARAMS: Record<string, () => Promise<string>> = {
  companyId: () => makeCompany(t),
  userId: async () => (await makeUser(t, await makeCompany(t))).id,
  siteId: async () => makeSite(t, await makeCompany(t)),
  // A CloudPBX (document 2), which is also a system (updateSystem).
  systemId: async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/svc/vcpprovisioning/v1.0/cloudpbxs',
      headers: bearer(t.superToken),
      payload: { companyId: await makeCompany(t) },
    });
    if (res.statusCode !== 201) throw new Error(`createCloudPbx: ${res.statusCode} ${res.body}`);
    lastSystemId = res.json().data.id as string;
    return lastSystemId;
  },
  // A welcome of the CloudPBX the path's systemId (before it in the path) just made.
  ivrId: async () => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${lastSystemId}/ivrs/welcomes`,
      headers: bearer(t.superToken),
      payload: { name: 'Empty-objects welcome' },
    });
    if (res.statusCode !== 201) throw new Error(`createWelcome: ${res.statusCode} ${res.body}`);
    return res.json().data.id as string;
  },
  // An external trunk (document 2), made by superadmin.
  externalTrunkId: async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/svc/vcpprovisioning/v1.0/externaltrunks',
      headers: bearer(t.superToken),
      payload: { name: `Trunk ${newId()}`, vcpInstanceId: 'vcp-eu-1', trunkType: 'bp_trunk' },
    });
    if (res.statusCode !== 201) throw new Error(`createExternalTrunk: ${res.statusCode} ${res.body}`);
    return res.json().data.id as string;
  },
  organisationId: async () => {
    const id = newId();
    await t.db.insert(organisations).values({ id, name: `Org ${id}` });
    return id;
  },
};

/** The object branch of a schema (an object, or the object of a nullable union). */
function objectBranch(s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  if (s.type === 'object') return s;
  for (const b of s.anyOf ?? s.oneOf ?? []) {
    const o = objectBranch(b);
    if (o) return o;
  }
  return undefined;
}

/** A valid, non-empty value for a schema. */
function sample(s: Schema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const branches: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (branches) return sample(branches.find((b) => b.type !== 'null') ?? branches[0]);
  switch (s.type) {
    case 'string':
      if (s.format === 'email') return 'sample@example.com';
      if (s.format === 'date-time') return '2030-01-01T00:00:00.000Z';
      return 'kept-value'.slice(0, s.maxLength ?? 10).padEnd(s.minLength ?? 0, 'x');
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'array':
      return s.items ? [sample(s.items)] : [];
    case 'object': {
      // An object whose schema gives an example (office hours: seven days, no generated value fits).
      if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
      const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
      // A free-form object (customData): some data of its own.
      if (props.length === 0) return { kept: 'value', nested: { n: 1 } };
      return Object.fromEntries(props.map(([k, v]) => [k, sample(v)]));
    }
    default:
      return 'kept-value';
  }
}

interface PutCase {
  operationId: string;
  path: string;
  field: string;
  body: Schema;
}

/** Every (PUT, object-valued body field) of the published OpenAPI document. */
function putCases(): PutCase[] {
  const doc = t.app.swagger() as unknown as Record<string, unknown>;
  // Named schemas are components: follow every $ref so that the walk below sees their fields.
  const inline = (node: unknown, depth = 0): unknown => {
    if (Array.isArray(node)) return node.map((x) => inline(x, depth));
    if (!node || typeof node !== 'object' || depth > 20) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/'))
      return inline(
        ref
          .slice(2)
          .split('/')
          .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], doc),
        depth + 1,
      );
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, depth)]));
  };
  const spec = { paths: inline(doc.paths) } as { paths: Record<string, Record<string, Schema>> };
  const out: PutCase[] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    const put = ops.put;
    const body = objectBranch(put?.requestBody?.content?.['application/json']?.schema);
    if (!put || !body) continue;
    for (const [field, s] of Object.entries((body.properties ?? {}) as Record<string, Schema>)) {
      if (objectBranch(s)) out.push({ operationId: put.operationId, path, field, body });
    }
  }
  return out;
}

async function urlOf(c: PutCase): Promise<string> {
  let url = c.path;
  for (const [, name] of c.path.matchAll(/\{([^}]+)\}/g)) {
    const make = PARAMS[name];
    if (!make)
      throw new Error(`${c.operationId}: no fixture for path parameter ${name}; add one to PARAMS in this file`);
    url = url.replace(`{${name}}`, await make());
  }
  return url;
}

describe('issue 8, point 2: an empty nested object in a PUT changes nothing (route table, conventions)', () => {
  it('issue 8, point 2: every object-valued field of every PUT of the OpenAPI document: {} keeps the value set before', async () => {
    const cases = putCases();
    // updateCompany (selectedTheme, selectedThemeCustomers, customData) and setCompanyCustomData at least.
    expect(cases.map((c) => `${c.operationId}.${c.field}`)).toEqual(
      expect.arrayContaining([
        'updateCompany.selectedTheme',
        'updateCompany.selectedThemeCustomers',
        'updateCompany.customData',
        'setCompanyCustomData.customData',
      ]),
    );
    for (const c of cases) {
      const label = `${c.operationId}.${c.field}`;
      const url = await urlOf(c);
      const others = Object.fromEntries(
        ((c.body.required ?? []) as string[])
          .filter((k) => k !== c.field)
          .map((k) => [k, sample(c.body.properties[k])]),
      );
      const value = sample(objectBranch(c.body.properties[c.field])!);
      const set = await t.inject({
        method: 'PUT',
        url,
        headers: bearer(t.superToken),
        payload: { ...others, [c.field]: value },
      });
      expect(set.statusCode, `${label}: setting ${JSON.stringify(value)}: ${set.body}`).toBe(200);
      const empty = await t.inject({
        method: 'PUT',
        url,
        headers: bearer(t.superToken),
        payload: { ...others, [c.field]: {} },
      });
      expect(empty.statusCode, `${label}: {} : ${empty.body}`).toBe(200);
      expect(empty.json(), `${label}: {} must change nothing`).toEqual(set.json());
    }
  });

  it('issue 8, point 2: {"selectedTheme": {}} keeps the stored theme; null clears it', async () => {
    const id = await makeCompany(t);
    const url = `${COMPANIES}/${id}?selectedThemeObj=true`;
    const set = await t.inject({
      method: 'PUT',
      url,
      headers: bearer(t.superToken),
      payload: { selectedTheme: { dark: 'night', light: 'day' } },
    });
    expect(set.json().data.selectedTheme).toEqual({ dark: 'night', light: 'day' });
    const empty = await t.inject({
      method: 'PUT',
      url,
      headers: bearer(t.superToken),
      payload: { selectedTheme: {}, slogan: 'still applied' },
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().data).toMatchObject({
      selectedTheme: { dark: 'night', light: 'day' },
      slogan: 'still applied',
    });
    const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
    expect(row.selectedTheme).toEqual({ dark: 'night', light: 'day' });
    const cleared = await t.inject({
      method: 'PUT',
      url,
      headers: bearer(t.superToken),
      payload: { selectedTheme: null },
    });
    expect(cleared.json().data.selectedTheme).toBeNull();
  });

  it('issue 8, point 2: {"customData": {}} keeps the stored data (updateCompany and setCompanyCustomData); null clears it', async () => {
    const id = await makeCompany(t);
    const data = { crm: 'A-12', tags: ['x'], nested: { deep: true } };
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${COMPANIES}/${id}`,
          headers: bearer(t.superToken),
          payload: { customData: data },
        })
      ).json().data.customData,
    ).toEqual(data);
    const viaUpdate = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}`,
      headers: bearer(t.superToken),
      payload: { customData: {} },
    });
    expect(viaUpdate.json().data.customData).toEqual(data);
    const viaSet = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}/custom-data`,
      headers: bearer(t.superToken),
      payload: { customData: {} },
    });
    expect(viaSet.statusCode, viaSet.body).toBe(200);
    expect(viaSet.json().data).toEqual({ id, customData: data });
    const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
    expect(row.customData).toEqual(data);
    // A non-empty object still replaces, and an empty object inside free-form data is data.
    const replaced = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}/custom-data`,
      headers: bearer(t.superToken),
      payload: { customData: { only: {} } },
    });
    expect(replaced.json().data.customData).toEqual({ only: {} });
    const cleared = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}`,
      headers: bearer(t.superToken),
      payload: { customData: null },
    });
    expect(cleared.json().data.customData).toBeNull();
  });

  it('issue 8, point 2: {"selectedThemeCustomers": {}} keeps the stored value', async () => {
    const id = await makeCompany(t);
    const value = { dark: 'd', light: 'l', force: true, locked: false };
    await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}`,
      headers: bearer(t.superToken),
      payload: { selectedThemeCustomers: value },
    });
    const res = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}`,
      headers: bearer(t.superToken),
      payload: { selectedThemeCustomers: {} },
    });
    expect(res.json().data.selectedThemeCustomers).toEqual(value);
  });

  it('issue 8, point 2: an empty object sent by a caller who may not set the field is no change, so no refusal', async () => {
    // customData is refused to a company_admin when adminCanSetCustomData is false; {} asks nothing.
    const id = await makeCompany(t);
    await t.db.update(companies).set({ adminCanSetCustomData: false }).where(eq(companies.id, id));
    const admin = await makeUser(t, id, ['company_admin']);
    const res = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}`,
      headers: bearer(admin.token),
      payload: { customData: {}, slogan: 'ok' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const refused = await t.inject({
      method: 'PUT',
      url: `${COMPANIES}/${id}`,
      headers: bearer(admin.token),
      payload: { customData: { a: 1 } },
    });
    expect(refused.json().errorDetailsCode).toBe(403104);
  });
});

describe('issue 8, point 2: the plan derived from a body schema', () => {
  it('issue 8, point 2: nested declared objects are looked into, free-form objects and null are left alone', async () => {
    const { Type } = await import('typebox');
    const { emptyObjectPlan, dropEmptyObjects } = await import('../../src/http/empty-objects.ts');
    const schema = Type.Object({
      name: Type.Optional(Type.String()),
      theme: Type.Optional(
        Type.Union([
          Type.Object({
            dark: Type.Optional(Type.String()),
            inner: Type.Optional(Type.Object({ a: Type.Optional(Type.String()) })),
          }),
          Type.Null(),
        ]),
      ),
      data: Type.Optional(Type.Object({}, { additionalProperties: true })),
      list: Type.Optional(Type.Array(Type.Object({}))),
    });
    const plan = emptyObjectPlan(schema);
    expect([...plan.keys()].sort()).toEqual(['data', 'theme']);
    const body: Record<string, unknown> = { name: 'n', theme: { inner: {} }, data: { free: {} }, list: [{}] };
    dropEmptyObjects(body, plan);
    // theme held only an empty object: it changes nothing and goes as a whole.
    expect(body).toEqual({ name: 'n', data: { free: {} }, list: [{}] });
    const cleared: Record<string, unknown> = { theme: null, data: {} };
    dropEmptyObjects(cleared, plan);
    expect(cleared).toEqual({ theme: null });
  });
});
