// Issue 10, point 2: company features (document 1, list company features; Company feature).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { offers, subscriptions, type OfferFeature } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import type { SubscriptionStatus } from '../../src/modules/commerce/subscriptions.schemas.ts';

const S = '/api/svc/subscription/v1.0';
let t: TestApp;
let vad: string, ec: string, lone: string;

const num = (ref: string, limitMax: number): OfferFeature => ({
  featureUniqueRef: ref,
  featureName: `Feature ${ref}`,
  featureType: 'number',
  limitMax,
});
const bool = (ref: string, isEnabled: boolean): OfferFeature => ({
  featureUniqueRef: ref,
  featureName: `Feature ${ref}`,
  featureType: 'boolean',
  isEnabled,
});

async function subscribe(
  companyId: string,
  features: OfferFeature[],
  status: SubscriptionStatus = 'active',
  creationDate = new Date('2026-01-01T00:00:00Z'),
) {
  const offerId = newId();
  await t.db
    .insert(offers)
    .values({ id: offerId, name: `Offer ${offerId}`, features, lastUpdateDate: new Date('2025-06-01T00:00:00Z') });
  await t.db.insert(subscriptions).values({ id: newId(), companyId, offerId, status, creationDate });
}
const features = (companyId: string, token = t.superToken) =>
  t.inject({ method: 'GET', url: `${S}/companies/${companyId}/subscriptions/features`, headers: bearer(token) });

beforeAll(async () => {
  t = await createTestApp();
  vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
  ec = await makeCompany(t, { bpId: vad });
  lone = await makeCompany(t);
  await subscribe(
    ec,
    [num('maxParticipants', 10), bool('recording', false), bool('webinar', true)],
    'active',
    new Date('2026-02-01T00:00:00Z'),
  );
  await subscribe(
    ec,
    [num('maxParticipants', 50), bool('recording', true)],
    'active',
    new Date('2026-03-01T00:00:00Z'),
  );
  await subscribe(ec, [num('maxParticipants', 500), bool('transcription', true)], 'terminated');
  await subscribe(ec, [num('maxParticipants', 400)], 'creating');
});
afterAll(() => t.close());

describe('doc 1, list company features', () => {
  it('aggregated from every active subscription: a number feature takes the highest limitMax, a boolean one is enabled if any grants it; terminated and creating ones give nothing', async () => {
    const res = await features(ec);
    expect(res.statusCode, res.body).toBe(200);
    const byRef = Object.fromEntries(res.json().data.map((f: { featureUniqueRef: string }) => [f.featureUniqueRef, f]));
    expect(Object.keys(byRef).sort()).toEqual(['maxParticipants', 'recording', 'webinar']);
    expect(byRef.maxParticipants).toMatchObject({ featureId: 'maxParticipants', featureType: 'number', limitMax: 50 });
    expect(byRef.maxParticipants.isEnabled).toBe(undefined);
    expect(byRef.recording).toMatchObject({ featureType: 'boolean', isEnabled: true });
    expect(byRef.webinar).toMatchObject({ featureType: 'boolean', isEnabled: true });
  });

  it('addedDate is the first active subscription bringing the feature, lastUpdateDate the latest (decisions, Licences)', async () => {
    const f = (await features(ec))
      .json()
      .data.find((x: { featureUniqueRef: string }) => x.featureUniqueRef === 'recording');
    expect(f.addedDate).toBe('2026-02-01T00:00:00.000Z');
    expect(f.lastUpdateDate).toBe('2026-03-01T00:00:00.000Z');
  });

  it('a boolean feature no active subscription enables is listed disabled; a company without subscriptions has none', async () => {
    const other = await makeCompany(t);
    await subscribe(other, [bool('recording', false)]);
    expect((await features(other)).json().data).toMatchObject([{ featureUniqueRef: 'recording', isEnabled: false }]);
    expect((await features(lone)).json().data).toEqual([]);
  });

  it("doc 1, list company features, roles: company_admin and user of the company, the BP's bp_admin and bp_finance for its End Customers; another company's user 404", async () => {
    for (const roles of [['company_admin'], []] as const)
      expect((await features(ec, (await makeUser(t, ec, [...roles])).token)).statusCode).toBe(200);
    for (const role of ['bp_admin', 'bp_finance'] as const)
      expect((await features(ec, (await makeUser(t, vad, [role])).token)).statusCode).toBe(200);
    expect((await features(ec, (await makeUser(t, lone, ['company_admin'])).token)).statusCode).toBe(404);
  });
});
