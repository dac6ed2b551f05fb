// Issue 28, points 3, 6 and 8 in a real browser: catalogs and offers with their prices; a
// company's subscriptions with their live state; the quotation, each line with its calculation,
// before subscribing; `creating` then `active` without a reload; a licence assigned and the used
// count and chart moving; an invoice's PDF and the invoicing files; menus by role; axe.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { login } from '../../scripts/service-process.ts';
import {
  SUPERADMIN_EMAIL,
  SUPERADMIN_PASSWORD,
  axeViolations,
  signIn,
  skipUnlessAvailable,
  startConsole,
  type ConsoleRun,
  api,
  waitShowing,
} from './browser.ts';

const skip = skipUnlessAvailable();
const S = '/api/svc/subscription/v1.0';
const A = '/api/svc/admin/v1.0';

const stamp = Date.now().toString(36);
const OFFER = `Business licence ${stamp}`;
const CATALOG = `Partner catalog ${stamp}`;
const CA_EMAIL = `ec-admin-${stamp}@example.com`;
const CA_PASSWORD = 'Company-admin-1!';

describe('console: commerce and billing (issue 28, points 3, 6 and 8)', { skip }, () => {
  let run: ConsoleRun;
  let admin: string;
  let vad: string;
  let ec: string;
  let offerId: string;
  let catalogId: string;

  before(async () => {
    // The embedded order and billing systems take 3 s a call, so the page can be seen showing
    // `creating` before the synchronisation makes the subscription `active` (settings: PORTS_DELAY_MS),
    // even on a loaded CI machine where the page's first answer after the order comes late.
    run = await startConsole({ PORTS_DELAY_MS: '3000' });
    admin = await login(run.base, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
    // Data the test is not about, through the public API: a priced offer in a catalog, a VAD
    // reselling it (its applicant number is known to the order system), its End Customer and a user.
    offerId = (
      await api(run, admin, 'POST', `${S}/offers`, {
        name: OFFER,
        description: 'Telephony and collaboration per user',
        canBeSold: true,
        businessModel: 'nb_users',
        billingProductRatePlanId: `rp-${stamp}`,
        prices: [{ currency: 'EUR', amount: '10.00' }],
        profileId: 'p-business',
        profileName: 'Business',
      })
    ).data.id;
    catalogId = (await api(run, admin, 'POST', `${S}/catalogs`, { name: CATALOG, offerIds: [offerId] })).data.id;
    vad = (
      await api(run, admin, 'POST', `${A}/companies`, {
        name: `Distributor ${stamp}`,
        isBP: true,
        bpType: 'VAD',
        bpBusinessModel: 'resell',
        bpApplicantNumber: `APP-${stamp}`,
        catalogId,
        country: 'FRA',
        currency: 'EUR',
      })
    ).data.id;
    ec = (await api(run, admin, 'POST', `${A}/companies`, { name: `Customer ${stamp}`, bpId: vad, country: 'FRA' }))
      .data.id;
    await api(run, admin, 'POST', `${A}/users`, {
      loginEmail: `lena-${stamp}@example.com`,
      password: 'User-password-1!',
      firstName: 'Lena',
      lastName: 'Licensee',
      companyId: ec,
    });
    await api(run, admin, 'POST', `${A}/users`, {
      loginEmail: CA_EMAIL,
      password: CA_PASSWORD,
      firstName: 'Carl',
      lastName: 'Admin',
      companyId: ec,
      roles: ['company_admin'],
      adminType: 'company_admin',
    });
  });
  after(() => run?.close());

  test('issue 28, point 3: catalogs and offers with their prices (axe finds no serious violation)', async () => {
    const cp = await run.superadmin();
    const { page } = cp;
    await page.getByRole('link', { name: 'Catalogs' }).click();
    await page.getByRole('heading', { name: 'Catalogs', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: CATALOG });
    await row.waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await cp.shot('catalogs');
    await row.click();
    await page.getByRole('heading', { name: `Catalog ${CATALOG}`, level: 1 }).waitFor();
    const offer = page.getByRole('row').filter({ hasText: OFFER });
    await offer.waitFor();
    assert.match(await offer.innerText(), /10\.00/);
    assert.match(await offer.innerText(), /Per user/);
    await page.getByRole('link', { name: 'Offers' }).click();
    await page.getByRole('textbox', { name: 'Search by name' }).fill(stamp);
    await page.getByRole('row').filter({ hasText: OFFER }).click();
    await page.getByRole('heading', { name: `Offer ${OFFER}`, level: 1 }).waitFor();
    await page.getByText('Prices: €10.00').waitFor();
    cp.clean();
  });

  test('issue 28, point 8: quote then subscribe and watch it become active, assign a licence', async () => {
    const cp = await run.superadmin();
    const { page } = cp;
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('combobox', { name: 'Company', exact: true }).fill(`Customer ${stamp}`);
    await page.getByRole('option', { name: `Customer ${stamp}` }).click();
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { name: `Subscriptions of Customer ${stamp}`, level: 1 }).waitFor();
    // Every company holds the default subscription (document 1).
    await page.getByRole('table').getByText('1 in all').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    // No reload from here on: the states below must arrive in this same document.
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });

    await page.getByRole('button', { name: 'Subscribe' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscribe to an offer' });
    await dialog.getByRole('combobox', { name: 'Offer', exact: true }).click();
    await page.getByRole('option', { name: OFFER }).click();
    await dialog.getByRole('textbox', { name: 'Licences (maximum number of users)' }).fill('5');
    // The quotation comes first: confirming is not offered before it.
    assert.equal(await dialog.getByRole('button', { name: 'Confirm subscription' }).count(), 0);
    await dialog.getByRole('button', { name: 'Get quotation' }).click();
    const calculation = dialog.getByTestId('quotation-calculation').first();
    await calculation.waitFor();
    // Document 1 and issue 11: each line says how its amount was computed. A subscription made on
    // the 1st of a month (UTC) is billed for the whole month, otherwise for the days left in it
    // (docs/billing.md, Monthly offers 2 and 3).
    assert.match(await calculation.innerText(), /^5 users x 10\.00 EUR x (\d+\/\d+ days|1 month)$/);
    assert.match(await dialog.getByTestId('quotation-total').innerText(), /€/);
    await cp.shot('quotation');
    await dialog.getByRole('button', { name: 'Confirm subscription' }).click();

    const row = page.getByRole('row').filter({ hasText: OFFER });
    await waitShowing(row.getByTestId('subscription-status').getByText('creating'), page.getByRole('main'));
    await waitShowing(row.getByTestId('subscription-status').getByText('active'), page.getByRole('main'), {
      timeout: 90_000,
    });
    assert.match(await row.innerText(), /0 \/ 5/);
    assert.equal(navigations, 0, 'the state changed without a reload');
    await page.getByRole('table').getByText('2 in all').waitFor();
    await page.getByText(/today: 2 subscriptions, 5 licences/).waitFor();
    await cp.shot('subscriptions');

    await page.getByRole('main').getByRole('link', { name: 'Licences' }).click();
    await page.getByRole('heading', { name: `Licences of Customer ${stamp}`, level: 1 }).waitFor();
    const line = page.getByTestId(`licences-${offerId}`);
    assert.equal(await line.getByTestId('licences-used').innerText(), '0');
    const caption = page.getByTestId('licences-chart-caption');
    assert.match(await caption.innerText(), new RegExp(`${OFFER}: 0 used of 5`));
    assert.deepEqual(await axeViolations(page), []);
    const usedBars = () =>
      page
        .locator('[data-testid="licences-chart"] .recharts-bar-rectangle path')
        .evaluateAll((ps) => ps.map((p) => p.getAttribute('height') ?? p.getAttribute('d') ?? ''));
    const before = await usedBars();

    await page.getByRole('combobox', { name: 'User', exact: true }).click();
    await page.getByRole('option', { name: 'Lena Licensee' }).click();
    await page.getByRole('combobox', { name: 'Subscription', exact: true }).click();
    await page.getByRole('option', { name: `${OFFER} (0 / 5)` }).click();
    await page.getByRole('button', { name: 'Assign licence' }).click();
    await line.getByTestId('licences-used').getByText('1').waitFor();
    assert.match(await caption.innerText(), new RegExp(`${OFFER}: 1 used of 5`));
    // The chart is drawn again from the new counts: the Used bar is no longer empty.
    await page.waitForFunction(
      (b) =>
        JSON.stringify(
          [...document.querySelectorAll('[data-testid="licences-chart"] .recharts-bar-rectangle path')].map(
            (p) => p.getAttribute('height') ?? p.getAttribute('d') ?? '',
          ),
        ) !== JSON.stringify(b),
      before,
    );
    // The shot once the assignment has settled (no button still spinning).
    await page.locator('button[data-loading]').waitFor({ state: 'detached' });
    await cp.shot('licences');
    cp.clean();
  });

  test('issue 28, point 3: changing a quantity shows the quotation of the change first, then the new count settles', async () => {
    const cp = await run.superadmin();
    const { page } = cp;
    await page.goto(`/console/companies/${ec}/subscriptions`);
    const row = page.getByRole('row').filter({ hasText: OFFER });
    await row.getByText('1 / 5').waitFor();
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    await page.getByRole('button', { name: `Change the quantity of ${OFFER}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the number of licences' });
    await dialog.getByRole('textbox', { name: 'New number of licences' }).fill('7');
    assert.equal(await dialog.getByRole('button', { name: 'Confirm change' }).count(), 0);
    await dialog.getByRole('button', { name: 'Get quotation' }).click();
    // The change's own line: the 2 licences added, prorated over the rest of the month (the whole
    // month on its 1st, UTC).
    assert.match(
      await dialog.getByTestId('quotation-calculation').first().innerText(),
      /^2 users x 10\.00 EUR x (\d+\/\d+ days|1 month)$/,
    );
    await dialog.getByRole('button', { name: 'Confirm change' }).click();
    await waitShowing(row.getByText('synchronising'), page.getByRole('main'));
    await waitShowing(row.getByText('1 / 7'), page.getByRole('main'), { timeout: 90_000 });
    await waitShowing(row.getByText('synchronising'), page.getByRole('main'), { state: 'detached', timeout: 90_000 });
    assert.equal(navigations, 0, 'the change settled without a reload');
    cp.clean();
  });

  test("issue 28, point 3: an invoice's lines, its PDF downloaded, and the invoicing files", async () => {
    // The monthly run, done now by a superadmin for next month (route table: runBilling).
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const period = next.toISOString().slice(0, 7);
    const summary = (await api(run, admin, 'POST', `${S}/billing-runs`, { billingPeriod: period })).data;
    assert.ok(summary.invoices >= 1, JSON.stringify(summary));

    const cp = await run.superadmin();
    const { page } = cp;
    await page.goto(`/console/companies/${vad}/invoices`);
    await page.getByRole('heading', { name: `Invoices of Distributor ${stamp}`, level: 1 }).waitFor();
    await page
      .getByRole('button', { name: /^Invoice / })
      .first()
      .click();
    await page
      .getByRole('cell', { name: /7 users x 10\.00 EUR x 1 month/ })
      .first()
      .waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).first().click(),
    ]);
    assert.match(download.suggestedFilename(), /^invoice-.+\.pdf$/);
    const file = await download.path();
    assert.equal(readFileSync(file).subarray(0, 5).toString(), '%PDF-');
    await page.getByRole('table').filter({ hasText: 'Invoicing files' }).getByText(period).first().waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await cp.shot('invoices');
    cp.clean();
  });

  test("issue 28, point 1: a company administrator sees his company's subscriptions, without catalogs or buying", async () => {
    const cp = await run.open();
    await signIn(cp, CA_EMAIL, CA_PASSWORD);
    const { page } = cp;
    assert.equal(await page.getByRole('link', { name: 'Catalogs' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Offers' }).count(), 0);
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    // He acts on his own company only: the menu takes him straight to it.
    await page.getByRole('heading', { name: `Subscriptions of Customer ${stamp}`, level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: OFFER }).waitFor();
    // Document 1: company_admin updates his company's subscriptions but does not buy them.
    assert.equal(await page.getByRole('button', { name: 'Subscribe' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: `Change the quantity of ${OFFER}` }).count(), 1);
    cp.clean();
    await cp.context.close();
  });
});
