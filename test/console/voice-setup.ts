// The prerequisites of the voice console tests (issue 28, point 8), made through the public API
// because the tests are not about them: an End Customer with a site, a user holding a licence of
// a subscription other than the default offer (what a subscriber needs: issue 25, point 4).
import { randomBytes } from 'node:crypto';
import { apiCall } from './browser.ts';
export interface VoiceWorld {
  companyId: string;
  companyName: string;
  siteId: string;
  siteName: string;
  userId: string;
  userName: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A company, its site and a licensed user (the subscription waited for until active). */
export async function voiceWorld(base: string, token: string): Promise<VoiceWorld> {
  const tag = randomBytes(3).toString('hex');
  const companyName = `Voice EC ${tag}`;
  const company = (
    await apiCall(base, token, 'POST', '/api/svc/admin/v1.0/companies', { name: companyName, country: 'FRA' })
  ).data;
  const site = (
    await apiCall(base, token, 'POST', '/api/svc/admin/v1.0/sites', { name: `Site ${tag}`, companyId: company.id })
  ).data;
  const user = (
    await apiCall(base, token, 'POST', '/api/svc/admin/v1.0/users', {
      loginEmail: `voice-${tag}@example.com`,
      password: 'Voice-user-1!pass',
      companyId: company.id,
      firstName: 'Alice',
      lastName: `Voice ${tag}`,
    })
  ).data;
  const offer = (
    await apiCall(base, token, 'POST', '/api/svc/subscription/v1.0/offers', {
      name: `Voice offer ${tag}`,
      canBeSold: true,
      businessModel: 'nb_users',
      hasVoice: true,
    })
  ).data;
  const S = `/api/svc/subscription/v1.0/companies/${company.id}/subscriptions`;
  const sub = (await apiCall(base, token, 'POST', S, { offerId: offer.id, maxNumberUsers: 10 })).data;
  for (let i = 0; i < 100; i++) {
    const now = (await apiCall(base, token, 'GET', `${S}/${sub.id}`)).data;
    if (now.status === 'active') break;
    await sleep(200);
  }
  await apiCall(base, token, 'POST', `/api/svc/admin/v1.0/users/${user.id}/profiles/subscriptions/${sub.id}`);
  return {
    companyId: company.id,
    companyName,
    siteId: site.id,
    siteName: `Site ${tag}`,
    userId: user.id,
    userName: `Alice Voice ${tag}`,
  };
}
