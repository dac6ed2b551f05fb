// Issue 9, point 6: references are checked. A body field holding the id of another resource must
// name a resource of the declared kind that the caller may reference (docs/decisions.md,
// References), or the request gets 400 (400005) and nothing is stored. The mechanism is declared
// on the operation (`references`, src/authz/references.ts); the last test holds every id field of
// every body to a declaration, so operations to come cannot forget theirs.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { OPERATIONS } from '../../src/modules/index.ts';
import { checkReferenceDeclaration } from '../../src/authz/references.ts';
import { Type } from 'typebox';

const A = '/api/svc/admin/v1.0';
const REFUSED = { status: 400, code: 400005 };

let t: TestApp;
// Two tenants: a BP with an End Customer each; the End Customer of `mine` is administered by `admin`.
let bp: string;
let ec: string;
let otherEc: string;
let admin: MadeUser;
let bpAdmin: MadeUser;
let colleague: MadeUser;
let stranger: MadeUser;
let site: string;
let otherSite: string;

beforeAll(async () => {
  t = await createTestApp();
  bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
  ec = await makeCompany(t, { bpId: bp });
  const otherBp = await makeCompany(t, { isBP: true, bpType: 'DR' });
  otherEc = await makeCompany(t, { bpId: otherBp });
  admin = await makeUser(t, ec, ['company_admin']);
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  colleague = await makeUser(t, ec);
  stranger = await makeUser(t, otherEc);
  site = await makeSite(t, ec);
  otherSite = await makeSite(t, otherEc);
});
afterAll(() => t.close());

const call = (token: string, method: 'POST' | 'PUT', url: string, payload: object) =>
  t.inject({ method, url, headers: bearer(token), payload });
const expectRefused = (
  res: {
    statusCode: number;
    body: string;
    json(): { errorDetailsCode: number; errorDetails: Record<string, unknown> };
  },
  field: string,
) => {
  expect({ status: res.statusCode, code: res.json().errorDetailsCode }, res.body).toEqual(REFUSED);
  expect(res.json().errorDetails.field).toBe(field);
};
const company = async (id: string) => (await t.db.select().from(companies).where(eq(companies.id, id)))[0];

describe('issue 9, point 6: companyContactId', () => {
  it('issue 9, point 6: a user of another tenant as companyContactId is 400 and nothing is stored', async () => {
    const res = await call(admin.token, 'PUT', `${A}/companies/${ec}`, {
      companyContactId: stranger.id,
      slogan: 'not stored',
    });
    expectRefused(res, 'companyContactId');
    const row = await company(ec);
    expect({ contact: row.companyContactId, slogan: row.slogan }).toEqual({ contact: null, slogan: null });
  });

  it('issue 9, point 6: an id that names no user, and a user of another company the caller reads, are refused alike', async () => {
    expectRefused(
      await call(admin.token, 'PUT', `${A}/companies/${ec}`, { companyContactId: 'no-such-user' }),
      'companyContactId',
    );
    // The BP reads the users of its End Customer, but the contact of the BP company must be one of its own.
    expectRefused(
      await call(bpAdmin.token, 'PUT', `${A}/companies/${bp}`, { companyContactId: colleague.id }),
      'companyContactId',
    );
    expect((await company(bp)).companyContactId).toBe(null);
  });

  it('issue 9, point 6: a user of the company is accepted and stored; sending it back later is no new reference', async () => {
    const res = await call(admin.token, 'PUT', `${A}/companies/${ec}`, { companyContactId: colleague.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await company(ec)).companyContactId).toBe(colleague.id);
    // The contact leaves the company: a client sending back what it read is not refused for it.
    const mover = await makeUser(t, ec);
    expect((await call(admin.token, 'PUT', `${A}/companies/${ec}`, { companyContactId: mover.id })).statusCode).toBe(
      200,
    );
    await t.db.update(users).set({ companyId: otherEc }).where(eq(users.id, mover.id));
    expect(
      (await call(admin.token, 'PUT', `${A}/companies/${ec}`, { companyContactId: mover.id, slogan: 'kept' }))
        .statusCode,
    ).toBe(200);
    // null clears (stored as null once issue 9, point 4 ends its coercion to "", which names no one either).
    expect((await call(admin.token, 'PUT', `${A}/companies/${ec}`, { companyContactId: null })).statusCode).toBe(200);
    expect([null, '']).toContain((await company(ec)).companyContactId);
  });

  it('issue 9, point 6: a company being created has no users, so no contact: 400 and no company', async () => {
    const before = (await t.db.select().from(companies)).length;
    expectRefused(
      await call(bpAdmin.token, 'POST', `${A}/companies`, { name: 'With a contact', companyContactId: bpAdmin.id }),
      'companyContactId',
    );
    expect((await t.db.select().from(companies)).length).toBe(before);
  });
});

describe('issue 9, point 6: visibleBy', () => {
  it('issue 9, point 6: a company of another tenant in visibleBy is 400 and nothing is stored', async () => {
    expectRefused(await call(admin.token, 'PUT', `${A}/companies/${ec}`, { visibleBy: [ec, otherEc] }), 'visibleBy');
    expect((await company(ec)).visibleBy).toEqual(null);
    const before = (await t.db.select().from(companies)).length;
    expectRefused(
      await call(bpAdmin.token, 'POST', `${A}/companies`, { name: 'Visible elsewhere', visibleBy: [otherEc] }),
      'visibleBy',
    );
    expect((await t.db.select().from(companies)).length).toBe(before);
  });

  it('issue 9, point 6: companies the caller reads are accepted', async () => {
    const res = await call(bpAdmin.token, 'PUT', `${A}/companies/${bp}`, { visibleBy: [bp, ec] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await company(bp)).visibleBy).toEqual([bp, ec]);
  });
});

describe('issue 9, point 6: siteId of a user', () => {
  it('issue 9, point 6: creating a user at a site of another tenant is 400 and creates no user', async () => {
    const email = `cross-site-${Date.now()}@example.com`;
    expectRefused(
      await call(admin.token, 'POST', `${A}/users`, { loginEmail: email, password: PASSWORD, siteId: otherSite }),
      'siteId',
    );
    expect(await t.db.select().from(users).where(eq(users.loginEmail, email))).toEqual([]);
  });

  it('issue 9, point 6: moving a user to a site of another tenant is 400 and leaves him where he is', async () => {
    expectRefused(
      await call(admin.token, 'PUT', `${A}/users/${colleague.id}`, { siteId: otherSite, firstName: 'Not stored' }),
      'siteId',
    );
    const [row] = await t.db.select().from(users).where(eq(users.id, colleague.id));
    expect({ siteId: row.siteId, firstName: row.firstName }).toEqual({ siteId: null, firstName: 'First' });
  });

  it('issue 9, point 6: a site_admin, who reads only his site, cannot send a user to another site of his company', async () => {
    const siteAdmin = await makeUser(t, ec, ['site_admin'], { siteId: site });
    const mate = await makeUser(t, ec, [], { siteId: site });
    const second = await makeSite(t, ec);
    expectRefused(await call(siteAdmin.token, 'PUT', `${A}/users/${mate.id}`, { siteId: second }), 'siteId');
    expect((await call(admin.token, 'PUT', `${A}/users/${mate.id}`, { siteId: second })).statusCode).toBe(200);
  });
});

describe('issue 9, point 6: the declarations', () => {
  it('issue 9, point 6: a reference naming no field of the body, or on a public operation, is refused at registration', () => {
    expect(() =>
      checkReferenceDeclaration('someOperation', Type.Object({ name: Type.String() }), {
        contactId: { kind: 'user', rule: 'a user' },
      }),
    ).toThrow(/contactId/);
    expect(() =>
      checkReferenceDeclaration('someOperation', Type.Object({ contactId: Type.String() }), {
        contactId: { kind: 'nothing' as 'user', rule: 'x' },
      }),
    ).toThrow(/unknown kind/);
  });

  /**
   * Id fields of bodies that are not references of this service, each with its reason. Any other
   * body field named like an id (…Id, …Ids) must be the operation's target, one of its second
   * resources or a declared reference.
   */
  const NOT_REFERENCES: Record<string, string> = {
    'createCompany.catalogId':
      'only a superadmin sets it (403102 otherwise); the companies service checks it through the commerce service: an unknown catalog is 400605',
    'createOwnCompany.catalogId':
      'only a superadmin sets it (403102 otherwise); the companies service checks it through the commerce service: an unknown catalog is 400605',
    'updateCompany.catalogId':
      'only a superadmin sets it (403102 otherwise); the companies service checks it through the commerce service: an unknown catalog is 400605',
    'createCompany.crmAccountId': 'the account of the company in the CRM, an external system',
    'createOwnCompany.crmAccountId': 'the account of the company in the CRM, an external system',
    'updateCompany.crmAccountId': 'the account of the company in the CRM, an external system',
    // createOwnCompany's target is the caller's company; the service refuses bpId there (403102).
    'createOwnCompany.bpId': 'refused by the service: a company of its own has no BP',
    'selfRegister.joinCompanyLinkId': 'a public operation: the link id is the credential (404300 when unknown)',
    ...Object.fromEntries(
      ['createOffer', 'updateOffer'].flatMap((op) => [
        [
          `${op}.profileId`,
          "the offer's profile: a name of the offer in the billing system, not a resource of this service",
        ],
        ...['billingOfferId', 'billingProductRatePlanId', 'billingProductRatePlanChargeId'].map((f) => [
          `${op}.${f}`,
          'an identifier in the billing system, an external system',
        ]),
      ]),
    ),
    'createCatalog.offerIds':
      "offers are the platform's, managed by superadmin like the catalog; the service refuses an unknown one",
    'addOfferToCatalog.offerId': "offers are the platform's, managed by superadmin like the catalog (404 when unknown)",
    'createSubscription.offerId':
      'an offer of the catalog the company sees (document 1, create subscription rule 8: 403600 outside it, superadmin excepted; 404 when unknown), checked by the service',
    'createQuotation.offerId':
      'an offer of the catalog the company sees (document 1, create a quotation rule 5: 403600 outside it, superadmin excepted; 404 when unknown), checked by the service; nothing is stored',
    'createQuotation.subscriptionId':
      'a subscription of the company of the path (404 otherwise), read by the service; nothing is stored',
    'applyCustomisationTemplate.templateId':
      'the templates are a platform catalogue every signed-in user reads (404450 when unknown)',
    'createDevice.deviceTypeId': 'a device model of the service’s table, not a resource (400830 when unknown)',
    'assignDeviceToSubscriber.deviceTypeId':
      'a device model, naming the device with its macAddress (400005 naming it when the device’s differs)',
    'createProgrammableKey.phoneNumberId':
      'a subscriber of the device’s CloudPBX, checked by the service (400835 otherwise): the subscriber kind’s read operation belongs to the subscribers’ work',
    'updateGroupForward.vcpAutoAttendantId':
      'a welcome service of the group’s CloudPBX (a pbx_ivrs row of kind welcomeservice), checked by the service (400856 naming it otherwise); the ivr kind also holds welcomes, which are no destination',
    'createSystem.pbxId': 'the identifier the telephone system itself reports, not a resource of this service',
    // Document 3: these cannot change; only the phone number's current values are accepted (400551).
    ...Object.fromEntries(
      ['pbxId', 'systemId', 'pbxUserId'].map((f) => [
        `updateSystemPhoneNumber.${f}`,
        "read-only: only the number's current value is accepted (400551), nothing is stored",
      ]),
    ),
    // External trunks (document 2, External SIP trunk): superadmin's writes.
    ...Object.fromEntries(
      ['createExternalTrunk', 'updateExternalTrunk'].flatMap((op) => [
        [`${op}.peeringGroupId`, 'an identifier (integer) on the voice platform, an external system'],
        [`${op}.resellerId`, 'an identifier (integer) on the voice platform, an external system'],
        [
          `${op}.vcpInstanceId`,
          'a voice platform instance of the service (pbx.instances.ts, PBX_VCP_INSTANCES), not a resource: the service refuses another (400840)',
        ],
      ]),
    ),
  };

  it('issue 9, point 6: every id field of every body is a target, a second resource, a declared reference or listed with its reason', () => {
    const undeclared: string[] = [];
    for (const op of OPERATIONS) {
      const fields = Object.keys((op.body as { properties?: object } | undefined)?.properties ?? {});
      for (const field of fields.filter((f) => /(Id|Ids)$/.test(f))) {
        const acted =
          (op.target?.from === 'body' && op.target.field === field) ||
          Object.values(op.second ?? {}).some((s) => s.from === 'body' && s.field === field);
        if (!acted && !op.references?.[field] && !NOT_REFERENCES[`${op.operationId}.${field}`])
          undeclared.push(`${op.operationId}.${field}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
