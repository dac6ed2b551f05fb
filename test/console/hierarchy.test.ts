// Issue 28, point 2 in a real browser: the hierarchy pages of the console. A BP and an End
// Customer created through the console's forms (point 8 lists "create a BP and an End Customer"),
// found again in the server-paged list by search and paging, an avatar uploaded and previewed,
// the service-description PDF downloaded, a user created, a refusal of the service explained, and
// the accessibility of the list, details and users pages (point 7).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { login } from '../../scripts/service-process.ts';
import {
  SUPERADMIN_EMAIL,
  SUPERADMIN_PASSWORD,
  axeViolations,
  signIn,
  skipUnlessAvailable,
  startConsole,
  type ConsolePage,
  type ConsoleRun,
  api,
} from './browser.ts';

const skip = skipUnlessAvailable();
const AD = '/api/svc/admin/v1.0';

/** A w×h PNG of one colour (RGB, no filter), for the avatar upload. */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A field's accessible name: its label, with the asterisk of a required one. */
const field = (label: string) => new RegExp(`^${label}( \\*)?$`);

/** Chooses `name` in one of the console's company pickers (the service searches as one types). */
async function pickCompany(cp: ConsolePage, label: string, name: string) {
  await cp.page.getByRole('combobox', { name: field(label) }).fill(name);
  await cp.page.getByRole('option', { name, exact: true }).click();
}

const companyIdOf = (cp: ConsolePage) => new URL(cp.page.url()).pathname.split('/').at(-1) ?? '';

describe('console: the hierarchy (issue 28, point 2)', { skip }, () => {
  let run: ConsoleRun;
  let admin: string;
  const tag = `T${Date.now().toString(36)}`;
  const vadName = `VAD ${tag}`;
  const ecName = `Customer ${tag}`;
  let ecId = '';

  before(async () => {
    run = await startConsole();
    admin = await login(run.base, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
  });
  after(() => run?.close());

  test('issue 28, points 2 and 8: a superadmin creates a BP VAD, then an End Customer under it, through the console forms', async () => {
    const cp = await run.superadmin();
    await cp.page.getByRole('link', { name: 'Companies' }).click();
    await cp.page.getByRole('link', { name: 'New company' }).click();
    await cp.page.getByRole('heading', { name: 'New company', level: 1 }).waitFor();
    await cp.page.getByRole('radio', { name: 'Business partner (BP)' }).check();
    await cp.page.getByRole('textbox', { name: field('Name') }).fill(vadName);
    await cp.page.getByRole('button', { name: 'Create company' }).click();
    await cp.page.getByRole('heading', { name: vadName, level: 1 }).waitFor();
    await cp.page.getByText('BP VAD').waitFor();
    const vadId = companyIdOf(cp);

    await cp.page.goto('/console/companies/new');
    await cp.page.getByRole('radio', { name: 'End Customer' }).check();
    await pickCompany(cp, 'Business partner of the End Customer', vadName);
    await cp.page.getByRole('textbox', { name: field('Name') }).fill(ecName);
    await cp.page.getByLabel('City').fill('Lyon');
    await cp.shot('companies-new');
    await cp.page.getByRole('button', { name: 'Create company' }).click();
    await cp.page.getByRole('heading', { name: ecName, level: 1 }).waitFor();
    await cp.page.getByText(`Business partner: ${vadName}`).waitFor();
    ecId = companyIdOf(cp);

    // What the service holds: the console's forms made a VAD and an End Customer of it.
    const vad = (await api(run, admin, 'GET', `${AD}/companies/${vadId}?format=full`)).data;
    assert.equal(vad.isBP, true);
    assert.equal(vad.bpType, 'VAD');
    const ec = (await api(run, admin, 'GET', `${AD}/companies/${ecId}?format=full`)).data;
    assert.equal(ec.isBP, false);
    assert.equal(ec.bpId, vadId);
    assert.equal(ec.city, 'Lyon');

    // The VAD's page leads to its customers: the list filtered by bpId on the service.
    await cp.page.getByRole('link', { name: vadName }).click();
    await cp.page.getByRole('heading', { name: vadName, level: 1 }).waitFor();
    await cp.page.getByRole('link', { name: 'Customers of this BP' }).click();
    await cp.page.getByTestId('bp-filter').filter({ hasText: vadName }).waitFor();
    const table = cp.page.getByRole('table');
    await table.getByRole('cell', { name: ecName }).waitFor();
    await table.getByText('1 in all').waitFor();
    await cp.page.getByRole('button', { name: 'Clear the BP filter' }).click();
    await table.getByRole('cell', { name: vadName }).waitFor();
    cp.clean();
  });

  test('issue 28, points 2 and 9: the companies list finds them by search and pages on the service', async () => {
    // 27 more companies sharing a word: more than one page of 25.
    for (let i = 0; i < 27; i++)
      await api(run, admin, 'POST', `${AD}/companies`, { name: `Paged ${tag} ${String(i).padStart(2, '0')}` });
    const cp = await run.superadmin();
    const asked: URL[] = [];
    cp.page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === `${AD}/companies`) asked.push(u);
    });
    await cp.page.getByRole('link', { name: 'Companies' }).click();
    const table = cp.page.getByRole('table');
    await cp.page.getByLabel('Search by name').fill(tag);
    await table.getByText('29 in all').waitFor();
    await cp.page.getByText('End customers', { exact: true }).click();
    // The previous page stays while the next loads: wait for the row, then count.
    await table.getByRole('cell', { name: ecName }).waitFor();
    await table.getByText('1 in all').waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1);
    await cp.page.getByText('Business partners', { exact: true }).click();
    // The previous page stays while the next loads: wait for the row, then count.
    await table.getByRole('cell', { name: vadName }).waitFor();
    await table.getByText('1 in all').waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1);
    await cp.page.getByText('All', { exact: true }).click();
    await table.getByText('29 in all').waitFor();
    await cp.page.getByLabel('Search by name').fill(`Paged ${tag}`);
    await table.getByText('27 in all').waitFor();
    assert.equal(await table.locator('tbody tr').count(), 25);
    await cp.page.getByRole('button', { name: 'page 2' }).click();
    await table.getByRole('cell', { name: `Paged ${tag} 26` }).waitFor();
    assert.equal(await table.locator('tbody tr').count(), 2);
    const last = asked.at(-1);
    assert.equal(last?.searchParams.get('offset'), '25');
    assert.equal(last?.searchParams.get('limit'), '25');
    assert.equal(last?.searchParams.get('name'), `Paged ${tag}`);
    assert.deepEqual(await axeViolations(cp.page), []);
    cp.clean();
  });

  test('issue 28, point 2: the End Customer’s avatar is uploaded with a preview and shown back from the service; its service description downloads as a PDF', async () => {
    const cp = await run.superadmin();
    await cp.page.goto(`/console/companies/${ecId}`);
    await cp.page.getByRole('heading', { name: ecName, level: 1 }).waitFor();
    // The company's links to the other areas (the main menu has entries of the same names).
    const areas = cp.page.getByRole('navigation', { name: 'The company in other areas' });
    for (const label of ['Subscriptions', 'Licences', 'Invoices', 'Cloud PBXs', 'Bulk import'])
      assert.ok(await areas.getByRole('link', { name: label }).isVisible(), label);
    await cp.page.getByRole('tab', { name: 'Avatar and banner' }).click();
    await cp.page.getByText('No avatar yet.').waitFor();
    await cp.page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png(96, 96, [200, 30, 40]) });
    await cp.page.getByRole('img', { name: 'Preview of the new avatar' }).waitFor();
    await cp.page.getByRole('button', { name: 'Upload avatar' }).click();
    const shown = cp.page.getByRole('img', { name: `Avatar of ${ecName}` });
    await shown.waitFor();
    await cp.page.waitForFunction((alt) => {
      const img = document.querySelector<HTMLImageElement>(`img[alt="${alt}"]`);
      return img !== null && img.complete && img.naturalWidth > 0;
    }, `Avatar of ${ecName}`);
    // The image shown is the service's (a blob: URL of GET /api/avatar), resized to 160 pixels.
    assert.match((await shown.getAttribute('src')) ?? '', /^blob:/);
    assert.equal(await shown.evaluate((i: HTMLImageElement) => i.naturalWidth), 160);
    const ec = (await api(run, admin, 'GET', `${AD}/companies/${ecId}?format=full`)).data;
    assert.ok(ec.lastAvatarUpdateDate, 'the service holds the avatar');
    await cp.shot('company-details');
    assert.deepEqual(await axeViolations(cp.page), []);

    await cp.page.getByRole('tab', { name: 'Service description' }).click();
    const [file] = await Promise.all([
      cp.page.waitForEvent('download'),
      cp.page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    const bytes = readFileSync(await file.path());
    assert.equal(bytes.subarray(0, 4).toString('latin1'), '%PDF');
    assert.match(file.suggestedFilename(), /\.pdf$/);
    assert.deepEqual(await axeViolations(cp.page), []);
    cp.clean();
  });

  test('issue 28, points 2 and 7: the other tabs of the details work and pass axe (customisation, join links and invitations, sites, users)', async () => {
    const cp = await run.superadmin();
    const found: string[] = [];
    const check = async (where: string) => {
      found.push(...(await axeViolations(cp.page)).map((v) => `${where}: ${v}`));
    };
    await cp.page.goto(`/console/companies/${ecId}`);
    await cp.page.getByRole('textbox', { name: field('Name') }).waitFor();
    await check('general');
    await cp.shot('company-general');

    await cp.page.getByRole('tab', { name: 'Customisation' }).click();
    const key = cp.page.getByRole('switch', { name: 'Use gif' });
    const before = await key.isChecked();
    await key.click({ force: true });
    await cp.page.getByText('Customisation saved').waitFor();
    const custom = (await api(run, admin, 'GET', `${AD}/companies/${ecId}/app-feature-customisation`)).data;
    assert.equal(custom.customisations.useGifCustomisation, before ? 'disabled' : 'enabled');
    await check('customisation');

    await cp.page.getByRole('tab', { name: 'Join links and invitations' }).click();
    await cp.page.getByRole('textbox', { name: 'Description' }).fill('Lyon office');
    await cp.page.getByRole('button', { name: 'Create join link' }).click();
    await cp.page.getByRole('cell', { name: 'Lyon office', exact: true }).waitFor();
    await cp.page
      .getByRole('textbox', { name: field('E-mail to invite') })
      .fill(`grace-${tag.toLowerCase()}@example.com`);
    await cp.page.getByRole('checkbox', { name: 'as company admin' }).check();
    await cp.page.getByRole('button', { name: 'Invite' }).click();
    await cp.page.getByRole('cell', { name: `grace-${tag.toLowerCase()}@example.com` }).waitFor();
    await check('join');
    await cp.shot('company-join');

    await cp.page.getByRole('tab', { name: 'Sites' }).click();
    await cp.page.getByRole('textbox', { name: field('New site name') }).fill('Part-Dieu');
    await cp.page.getByRole('button', { name: 'Create site' }).click();
    await cp.page.getByRole('cell', { name: 'Part-Dieu' }).waitFor();
    await check('sites');

    await cp.page.getByRole('tab', { name: 'Users' }).click();
    await cp.page.getByRole('table').getByText('in all').waitFor();
    await check('users tab');
    assert.deepEqual(found, []);
    cp.clean();
  });

  test('issue 28, point 2: a user is created in the End Customer with a role, and found in the users list', async () => {
    const cp = await run.superadmin();
    await cp.page.getByRole('link', { name: 'Users' }).click();
    await cp.page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await cp.page.getByRole('link', { name: 'New user' }).click();
    await pickCompany(cp, 'Company', ecName);
    const email = `ada-${tag.toLowerCase()}@example.com`;
    await cp.page.getByLabel('Login e-mail').fill(email);
    await cp.page.getByRole('textbox', { name: 'Password' }).fill('Lovelace-1815!');
    await cp.page.getByLabel('First name').fill('Ada');
    await cp.page.getByLabel('Last name').fill('Lovelace');
    await cp.page.getByRole('checkbox', { name: 'company_admin' }).check();
    await cp.page.getByRole('button', { name: 'Create user' }).click();
    await cp.page.getByRole('heading', { name: 'User Ada Lovelace', level: 1 }).waitFor();
    await cp.page.getByRole('link', { name: ecName }).waitFor();

    const found = (await api(run, admin, 'GET', `${AD}/users?format=full&loginEmail=${encodeURIComponent(email)}`))
      .data;
    assert.equal(found.length, 1);
    assert.equal(found[0].companyId, ecId);
    assert.deepEqual([...found[0].roles].sort(), ['company_admin', 'user']);

    await cp.page.getByRole('link', { name: 'Users' }).click();
    await cp.page.getByLabel('First or last name starts with').fill('Lov');
    const table = cp.page.getByRole('table');
    await table.getByText('1 in all').waitFor();
    await table.getByRole('cell', { name: email }).waitFor();
    await cp.shot('users');
    assert.deepEqual(await axeViolations(cp.page), []);
    cp.clean();
  });

  test('issue 28, points 1 and 2: the company admin just created reaches his company through “My company”', async () => {
    const cp = await run.open();
    await signIn(cp, `ada-${tag.toLowerCase()}@example.com`, 'Lovelace-1815!');
    assert.equal(await cp.page.getByRole('link', { name: 'Companies' }).count(), 0);
    await cp.page.getByRole('link', { name: 'My company' }).click();
    await cp.page.getByRole('heading', { name: ecName, level: 1 }).waitFor();
    // A company admin manages his own avatar (companyManagers), so the upload is offered.
    await cp.page.getByRole('tab', { name: 'Avatar and banner' }).click();
    await cp.page.getByRole('button', { name: 'Upload banner' }).waitFor();
    cp.clean();
    await cp.context.close();
  });

  test('issue 28, point 2: a superadmin creates an organisation and links the End Customer to it', async () => {
    const cp = await run.superadmin();
    await cp.page.getByRole('link', { name: 'Organisations' }).click();
    await cp.page.getByRole('heading', { name: 'Organisations', level: 1 }).waitFor();
    const orgName = `Org ${tag}`;
    await cp.page.getByRole('textbox', { name: field('New organisation name') }).fill(orgName);
    await cp.page.getByRole('button', { name: 'Create organisation' }).click();
    await cp.page.getByRole('cell', { name: orgName }).click();
    await cp.page.getByRole('heading', { name: `Organisation ${orgName}`, level: 1 }).waitFor();
    await pickCompany(cp, 'Company to link', ecName);
    await cp.page.getByRole('button', { name: 'Link company' }).click();
    await cp.page.getByRole('table').getByRole('link', { name: ecName }).waitFor();
    const ec = (await api(run, admin, 'GET', `${AD}/companies/${ecId}?format=full`)).data;
    assert.ok(ec.organisationId, 'the service holds the link');
    assert.deepEqual(await axeViolations(cp.page), []);
    cp.clean();
  });

  test('issue 28, points 1 and 2: a BP admin sees the End Customer’s form, and the service’s refusal of a new name is explained', async () => {
    const vad = (await api(run, admin, 'GET', `${AD}/companies?name=${encodeURIComponent(vadName)}`)).data[0];
    const email = `bp-${tag.toLowerCase()}@example.com`;
    const password = 'Bp-admin-1!';
    await api(run, admin, 'POST', `${AD}/users`, {
      loginEmail: email,
      password,
      companyId: vad.id,
      roles: ['bp_admin'],
      adminType: 'bp_admin',
    });
    const cp = await run.open();
    cp.allow(/status of 403/);
    await signIn(cp, email, password);
    // Menus by role: a bp_admin has companies and users, not organisations.
    assert.ok(await cp.page.getByRole('link', { name: 'Companies' }).isVisible());
    assert.ok(await cp.page.getByRole('link', { name: 'Users' }).isVisible());
    assert.equal(await cp.page.getByRole('link', { name: 'Organisations' }).count(), 0);
    await cp.page.getByRole('link', { name: 'Companies' }).click();
    await cp.page.getByRole('cell', { name: ecName }).click();
    await cp.page.getByRole('heading', { name: ecName, level: 1 }).waitFor();
    // updateCompany lets a BP change only the subscription flags of its End Customers.
    await cp.page.getByRole('textbox', { name: field('Name') }).fill(`${ecName} renamed`);
    const answer = cp.page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(ecId));
    await cp.page.getByRole('button', { name: 'Save changes' }).click();
    assert.equal((await answer).status(), 403);
    const alert = cp.page.getByRole('alert').filter({ hasText: 'Not allowed for your role' });
    await alert.waitFor();
    const ec = (await api(run, admin, 'GET', `${AD}/companies/${ecId}`)).data;
    assert.equal(ec.name, ecName);
    cp.clean();
    await cp.context.close();
  });
  test('issue 28, point 2: a VAD’s bp_admin creates a BP IR under his VAD through the console (document 3, create company rule 4)', async () => {
    const cp = await run.open();
    await signIn(cp, `bp-${tag.toLowerCase()}@example.com`, 'Bp-admin-1!');
    await cp.page.getByRole('link', { name: 'Companies' }).click();
    await cp.page.getByRole('link', { name: 'New company' }).click();
    const bpChoice = cp.page.getByRole('radio', { name: 'Business partner (BP)' });
    // Offered once the console has read that the caller's BP is a VAD.
    await cp.page.waitForFunction(() => {
      const r = [...document.querySelectorAll<HTMLInputElement>('input[type=radio]')].find((i) => i.value === 'bp');
      return r !== undefined && !r.disabled;
    });
    await bpChoice.check();
    await cp.page.getByText(`The new BP is an IR under your VAD (${vadName}).`).waitFor();
    const irName = `IR ${tag}`;
    await cp.page.getByRole('textbox', { name: field('Name') }).fill(irName);
    await cp.page.getByRole('button', { name: 'Create company' }).click();
    await cp.page.getByRole('heading', { name: irName, level: 1 }).waitFor();
    await cp.page.getByText('BP IR').waitFor();
    const ir = (await api(run, admin, 'GET', `${AD}/companies/${companyIdOf(cp)}?format=full`)).data;
    assert.equal(ir.isBP, true);
    assert.equal(ir.bpType, 'IR');
    const vad = (await api(run, admin, 'GET', `${AD}/companies?name=${encodeURIComponent(vadName)}`)).data[0];
    assert.equal(ir.bpId, vad.id);

    // Deleting (a termination: document 3) is asked twice; then the service holds it terminated.
    await cp.page.getByRole('button', { name: 'Terminate company' }).click();
    await cp.page.getByRole('button', { name: 'Yes, terminate company' }).click();
    await cp.page.getByRole('heading', { name: 'Companies', level: 1 }).waitFor();
    const gone = (await api(run, admin, 'GET', `${AD}/companies/${ir.id}?format=full`)).data;
    assert.equal(gone.status, 'terminated');
    cp.clean();
    await cp.context.close();
  });
});
