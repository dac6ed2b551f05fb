// Document 3, Customisation keys and templates: listCustomisationTemplates,
// getCustomisationTemplate, applyCustomisationTemplate, getFeatureCustomisation,
// setFeatureCustomisation, listCustomElements (choices in docs/decisions.md, Customisation).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { customisationTemplates } from '../../src/modules/admin/customisation/customisation.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { ensureSystemCompanies } from '../../src/bootstrap.ts';
import { BUILT_IN_TEMPLATES, CUSTOMISATION_KEYS } from '../../src/modules/admin/customisation/customisation.keys.ts';

const A = '/api/svc/admin/v1.0';
const FULL = BUILT_IN_TEMPLATES[0];
const CHAT_ONLY = BUILT_IN_TEMPLATES.find((x) => x.name === 'Chat only')!;
let t: TestApp;
let companyId: string;
let admin: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
});
afterAll(() => t.close());

const apply = (token: string, payload: object) =>
  t.inject({ method: 'POST', url: `${A}/customisations/templates/apply`, headers: bearer(token), payload });
const getFeatures = (token: string, id: string) =>
  t.inject({ method: 'GET', url: `${A}/companies/${id}/app-feature-customisation`, headers: bearer(token) });
const putFeatures = (token: string, id: string, payload: object) =>
  t.inject({ method: 'PUT', url: `${A}/companies/${id}/app-feature-customisation`, headers: bearer(token), payload });
async function company(id: string) {
  const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
  return row;
}

describe('doc 3, customisation keys', () => {
  it('doc 3, customisation keys: the 20 keys, company values enabled or disabled', async () => {
    const res = await getFeatures(admin.token, companyId);
    expect(res.statusCode).toBe(200);
    const values = res.json().data.customisations;
    expect(Object.keys(values).sort()).toEqual([...CUSTOMISATION_KEYS].sort());
    expect(CUSTOMISATION_KEYS).toHaveLength(20);
    for (const v of Object.values(values)) expect(['enabled', 'disabled']).toContain(v);
  });

  it('doc 3, customisation keys: alertNotificationReception, alertNotificationSending, useDialOutCustomisation stay with the company operations (shown read-only)', async () => {
    await t.db.update(companies).set({ alertNotificationSending: 'enabled' }).where(eq(companies.id, companyId));
    const data = (await getFeatures(admin.token, companyId)).json().data;
    expect(data.companyManaged).toEqual({
      alertNotificationReception: 'disabled',
      alertNotificationSending: 'enabled',
      useDialOutCustomisation: 'enabled',
    });
    const put = await putFeatures(admin.token, companyId, {
      alertNotificationSending: 'disabled',
      useDialOutCustomisation: 'disabled',
    });
    expect(put.statusCode).toBe(200);
    const row = await company(companyId);
    expect([row.alertNotificationSending, row.useDialOutCustomisation]).toEqual(['enabled', 'enabled']);
    expect(row.customisations).toEqual({});
  });
});

describe('doc 3, customisation templates', () => {
  it('the built-in templates are seeded at start, idempotently', async () => {
    await ensureSystemCompanies(t.db);
    await ensureSystemCompanies(t.db);
    const rows = await t.db.select().from(customisationTemplates);
    expect(rows.map((r) => r.id).sort()).toEqual(BUILT_IN_TEMPLATES.map((b) => b.id).sort());
  });

  it('listCustomisationTemplates: any signed-in user lists them, paged, filtered by name', async () => {
    const plain = await makeUser(t, companyId);
    const res = await t.inject({
      method: 'GET',
      url: `${A}/customisations/templates?limit=2`,
      headers: bearer(plain.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: BUILT_IN_TEMPLATES.length, limit: 2, offset: 0 });
    expect(res.json().data).toHaveLength(2);
    const chat = await t.inject({
      method: 'GET',
      url: `${A}/customisations/templates?name=CHAT`,
      headers: bearer(plain.token),
    });
    expect(
      chat
        .json()
        .data.map((x: { name: string }) => x.name)
        .sort(),
    ).toEqual(['Chat - Audio - Video', 'Chat only']);
    expect((await t.inject({ method: 'GET', url: `${A}/customisations/templates` })).statusCode).toBe(401);
  });

  it('getCustomisationTemplate: one template with its values; unknown id 404 (404450)', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${A}/customisations/templates/${CHAT_ONLY.id}`,
      headers: bearer(admin.token),
    });
    expect(res.json().data).toMatchObject({ id: CHAT_ONLY.id, name: 'Chat only', values: CHAT_ONLY.values });
    const missing = await t.inject({
      method: 'GET',
      url: `${A}/customisations/templates/ffffffffffffffffffffffff`,
      headers: bearer(admin.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errorDetailsCode).toBe(404450);
  });
});

describe('doc 3, apply a customisation template', () => {
  it('doc 3, customisation keys, "managed through customisation templates": applying to a company sets its values and selectedAppCustomisationTemplate', async () => {
    const id = await makeCompany(t);
    const res = await apply(t.superToken, { templateId: CHAT_ONLY.id, companyId: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: expect.any(String),
      data: { companyId: id, templateId: CHAT_ONLY.id, templateName: 'Chat only', customisations: CHAT_ONLY.values },
    });
    const row = await company(id);
    expect(row.selectedAppCustomisationTemplate).toBe(CHAT_ONLY.id);
    expect(row.customisations).toEqual(CHAT_ONLY.values);
    const features = (await getFeatures(t.superToken, id)).json().data;
    expect(features.selectedAppCustomisationTemplate).toEqual({ id: CHAT_ONLY.id, name: 'Chat only' });
    expect(features.customisations.useWebRTCVideoCustomisation).toBe('disabled');
  });

  it("by template name (case-insensitive), to the caller's company when no companyId is given", async () => {
    const id = await makeCompany(t);
    const a = await makeUser(t, id, ['company_admin']);
    const res = await apply(a.token, { templateName: 'chat only' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await company(id)).selectedAppCustomisationTemplate).toBe(CHAT_ONLY.id);
  });

  it('doc 3, customisation keys, "user values same_than_company, enabled, disabled": applying to a user sets his own values', async () => {
    const u = await makeUser(t, companyId);
    const before = (await company(companyId)).customisations;
    const res = await apply(admin.token, { templateId: CHAT_ONLY.id, userId: u.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ userId: u.id, templateId: CHAT_ONLY.id, customisations: CHAT_ONLY.values });
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(row.customisations).toEqual(CHAT_ONLY.values);
    expect(row.selectedAppCustomisationTemplate).toBe(CHAT_ONLY.id);
    expect((await company(companyId)).customisations).toEqual(before);
  });

  it('bad input: no template, both templateId and templateName, both companyId and userId, unknown template: 4xx and nothing changes', async () => {
    const id = await makeCompany(t);
    const a = await makeUser(t, id, ['company_admin']);
    const cases: [object, number, number][] = [
      [{ companyId: id }, 400, 400451],
      [{ templateId: FULL.id, templateName: 'Full', companyId: id }, 400, 400451],
      [{ templateId: FULL.id, companyId: id, userId: a.id }, 400, 400450],
      [{ templateId: 'ffffffffffffffffffffffff', companyId: id }, 404, 404450],
      [{ templateName: 'No such template', companyId: id }, 404, 404450],
    ];
    for (const [payload, status, code] of cases) {
      const res = await apply(a.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().errorDetailsCode).toBe(code);
    }
    expect((await apply(a.token, { templateId: { x: 1 }, companyId: id })).statusCode).toBe(400);
    const row = await company(id);
    expect([row.customisations, row.selectedAppCustomisationTemplate]).toEqual([{}, null]);
  });

  it('tenant isolation: another company or a user of another company gives 404 and nothing changes', async () => {
    const other = await makeCompany(t);
    const stranger = await makeUser(t, other);
    expect((await apply(admin.token, { templateId: CHAT_ONLY.id, companyId: other })).statusCode).toBe(404);
    expect((await apply(admin.token, { templateId: CHAT_ONLY.id, userId: stranger.id })).statusCode).toBe(404);
    expect((await company(other)).selectedAppCustomisationTemplate).toBeNull();
    const [row] = await t.db.select().from(users).where(eq(users.id, stranger.id));
    expect(row.customisations).toEqual({});
  });

  it('a bp_admin applies a template to a user of his End Customer', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const ec = await makeCompany(t, { bpId: bp });
    const bpAdmin = await makeUser(t, bp, ['bp_admin']);
    const u = await makeUser(t, ec);
    expect((await apply(bpAdmin.token, { templateId: FULL.id, userId: u.id })).statusCode).toBe(200);
  });
});

describe('doc 3, feature customisation of a company', () => {
  it('setFeatureCustomisation: the given keys change, absent keys are unchanged, unknown keys ignored', async () => {
    const id = await makeCompany(t);
    await apply(t.superToken, { templateId: CHAT_ONLY.id, companyId: id });
    const res = await putFeatures(t.superToken, id, { useWebRTCAudioCustomisation: 'enabled', noSuchKey: 'enabled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.customisations).toEqual({ ...CHAT_ONLY.values, useWebRTCAudioCustomisation: 'enabled' });
    const row = await company(id);
    expect(row.customisations).toEqual({ ...CHAT_ONLY.values, useWebRTCAudioCustomisation: 'enabled' });
    expect(row.customisations).not.toHaveProperty('noSuchKey');
  });

  it('an empty body changes nothing', async () => {
    const id = await makeCompany(t);
    await putFeatures(t.superToken, id, { useGifCustomisation: 'disabled' });
    const res = await putFeatures(t.superToken, id, {});
    expect(res.statusCode).toBe(200);
    expect((await company(id)).customisations).toEqual({ useGifCustomisation: 'disabled' });
  });

  it('a value other than enabled/disabled gives 400 and nothing changes', async () => {
    const id = await makeCompany(t);
    for (const v of ['same_than_company', 'on', true, 1]) {
      const res = await putFeatures(t.superToken, id, { useGifCustomisation: 'disabled', fileSharingCustomisation: v });
      expect(res.statusCode, String(v)).toBe(400);
    }
    expect((await company(id)).customisations).toEqual({});
  });

  it('tenant isolation and roles: another company 404; support reads (200) but cannot set (403)', async () => {
    const other = await makeCompany(t);
    expect((await getFeatures(admin.token, other)).statusCode).toBe(404);
    expect((await putFeatures(admin.token, other, { useGifCustomisation: 'disabled' })).statusCode).toBe(404);
    const support = await makeUser(t, t.defaultCompanyId, ['support']);
    expect((await getFeatures(support.token, other)).statusCode).toBe(200);
    const put = await putFeatures(support.token, other, { useGifCustomisation: 'disabled' });
    expect(put.statusCode).toBe(403);
    expect((await company(other)).customisations).toEqual({});
  });
});

describe('doc 3, custom elements of a company', () => {
  it('listCustomElements: the custom data keys, the template applied and the templates that can be applied', async () => {
    const id = await makeCompany(t);
    await t.db
      .update(companies)
      .set({ customData: { crm: 'x', aKey: 1 } })
      .where(eq(companies.id, id));
    await apply(t.superToken, { templateId: FULL.id, companyId: id });
    const res = await t.inject({
      method: 'GET',
      url: `${A}/companies/${id}/custom-elements`,
      headers: bearer(t.superToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.customDataKeys).toEqual(['aKey', 'crm']);
    expect(data.selectedAppCustomisationTemplate).toEqual({ id: FULL.id, name: 'Full' });
    expect(data.customisationTemplates).toHaveLength(BUILT_IN_TEMPLATES.length);
    expect(data.customisationKeys).toHaveLength(20);
    expect(
      (await t.inject({ method: 'GET', url: `${A}/companies/${id}/custom-elements`, headers: bearer(admin.token) }))
        .statusCode,
    ).toBe(404);
  });
});
