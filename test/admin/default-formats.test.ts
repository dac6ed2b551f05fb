// Issue 8, point 1: a single read without `format` returns the whole resource (a client of the
// original interface reads a user, then uses roles and siteId; a join-company link, then its
// description; a site, then its creationDate). getCompany keeps `small` (document 3), lists keep
// `small` (document 1). docs/formats.md lists the levels.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';

const A = '/api/svc/admin/v1.0';
let t: TestApp;
let companyId: string;
let siteId: string;
let admin: MadeUser;
let member: MadeUser;
let linkId: string;
let organisationId: string;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t, { name: 'Formats Co' });
  siteId = await makeSite(t, companyId);
  admin = await makeUser(t, companyId, ['company_admin']);
  member = await makeUser(t, companyId, ['site_admin'], { siteId });
  const link = await t.inject({
    method: 'POST',
    url: `${A}/companies/${companyId}/join-companies/links`,
    headers: bearer(admin.token),
    payload: { description: 'Spring onboarding', maxNumberUsers: 10 },
  });
  expect(link.statusCode, link.body).toBe(201);
  linkId = link.json().data.id;
  const org = await t.inject({
    method: 'POST',
    url: `${A}/organisations`,
    headers: bearer(t.superToken),
    payload: { name: 'Formats org' },
  });
  organisationId = org.json().data.id;
});
afterAll(() => t.close());

const get = async (url: string, token = t.superToken) => {
  const res = await t.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const withFormat = (url: string, f: string) => `${url}${url.includes('?') ? '&' : '?'}format=${f}`;

describe('issue 8, point 1: single reads without format answer every field', () => {
  it('issue 8, point 1: getUser without format is the full user (roles, siteId, creationDate...)', async () => {
    const url = `${A}/users/${member.id}`;
    const d = (await get(url)).data;
    expect(d).toMatchObject({
      id: member.id,
      roles: expect.arrayContaining(['site_admin', 'user']),
      siteId,
      isTerminated: false,
    });
    expect(typeof d.creationDate).toBe('string');
    expect(d).toEqual((await get(withFormat(url, 'full'))).data);
  });

  it('issue 8, point 1: getJoinCompanyLink without format is the full link (description, createdByAdminId, creationDate)', async () => {
    const url = `${A}/companies/${companyId}/join-companies/links/${linkId}`;
    const d = (await get(url, admin.token)).data;
    expect(d).toMatchObject({
      id: linkId,
      description: 'Spring onboarding',
      createdByAdminId: admin.id,
      maxNumberUsers: 10,
    });
    expect(d).toEqual((await get(withFormat(url, 'full'), admin.token)).data);
  });

  it('issue 8, point 1: getSite without format is the full site (creationDate, latin_name, settings)', async () => {
    const url = `${A}/sites/${siteId}`;
    const d = (await get(url)).data;
    expect(d).toMatchObject({ id: siteId, companyId, settings: { iceServers: [] } });
    expect(typeof d.creationDate).toBe('string');
    expect(d).toEqual((await get(withFormat(url, 'full'))).data);
  });

  it('issue 8, point 1: getOrganisation without format is the full organisation', async () => {
    const url = `${A}/organisations/${organisationId}`;
    const d = (await get(url)).data;
    expect(Object.keys(d).sort()).toEqual(['creationDate', 'id', 'name', 'visibility']);
  });

  it('issue 8, point 1: an unknown format value falls back to the same default (full for a single read)', async () => {
    const url = `${A}/users/${member.id}`;
    expect((await get(withFormat(url, 'bogus'))).data).toEqual((await get(url)).data);
  });
});

describe('issue 8, point 1: getCompany keeps small (doc 3), lists keep small (doc 1)', () => {
  it('doc 3, get company: without format the answer is small ({name, id})', async () => {
    const d = (await get(`${A}/companies/${companyId}`)).data;
    expect(d).toEqual({ name: 'Formats Co', id: companyId });
  });

  it('issue 8, point 1: lists without format answer at small', async () => {
    const lists = [
      `${A}/users?companyId=${companyId}`,
      `${A}/companies?limit=5`,
      `${A}/sites?companyId=${companyId}`,
      `${A}/companies/${companyId}/sites`,
      `${A}/companies/${companyId}/join-companies/links`,
      `${A}/organisations`,
      `${A}/companies/${companyId}/administrators`,
    ];
    for (const url of lists) {
      const plain = await get(url);
      expect(plain.data.length, url).toBeGreaterThan(0);
      expect(plain.data, url).toEqual((await get(withFormat(url, 'small'))).data);
      expect(plain.data, url).not.toEqual((await get(withFormat(url, 'full'))).data);
    }
  });
});
