// Issue 28, points 4 and 8 in a real browser: a CloudPBX made through the console for a company,
// a subscriber and its SIP device, the device's keys laid out as on the phone, a greeting uploaded
// and played in the page then restored, a welcome's office hours edited on the week grid and the
// exceptions' calendar, the menus of the roles (recordings for the company_admin only), and axe
// on the main pages. The company, its site and a licensed user (what a subscriber needs) are made
// through the API: the test is not about them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { login } from '../../scripts/service-process.ts';
import { wav } from '../pbx/audio-fixtures.ts';
import {
  SUPERADMIN_EMAIL,
  SUPERADMIN_PASSWORD,
  axeViolations,
  signIn,
  skipUnlessAvailable,
  startConsole,
  type ConsolePage,
  type ConsoleRun,
  apiCall,
} from './browser.ts';
import { voiceWorld, type VoiceWorld } from './voice-setup.ts';

const skip = skipUnlessAvailable();

/** Picks `option` in the Mantine Select labelled `label`, typing `search` first when given. */
async function choose(cp: ConsolePage, label: string, option: string | RegExp, search?: string) {
  const input = cp.page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (search !== undefined) await input.fill(search);
  await cp.page.getByRole('option', { name: option }).first().click();
}

async function noAxe(cp: ConsolePage, page: string, found: string[]) {
  found.push(...(await axeViolations(cp.page)).map((v) => `${page}: ${v}`));
}

describe('console: voice (issue 28, point 4)', { skip }, () => {
  let run: ConsoleRun;
  let admin: string;
  let w: VoiceWorld;
  let cp: ConsolePage;
  let systemId = '';
  const axeFound: string[] = [];

  before(async () => {
    run = await startConsole();
    admin = await login(run.base, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
    w = await voiceWorld(run.base, admin);
    cp = await run.open();
    await signIn(cp);
  });
  after(async () => {
    await cp?.context.close();
    await run?.close();
  });

  test('issue 28, point 8: a CloudPBX is created for a company through the console; the list and its settings show it', async () => {
    const { page } = cp;
    await page.getByRole('link', { name: 'CloudPBXs' }).click();
    await page.getByRole('heading', { name: 'CloudPBXs', level: 1 }).waitFor();
    await page.getByText('CloudPBXs: 0 in all').waitFor();
    await page.getByRole('link', { name: 'New CloudPBX' }).click();
    await page.getByRole('heading', { name: 'New CloudPBX', level: 1 }).waitFor();
    await choose(cp, 'Company', w.companyName, w.companyName);
    await choose(cp, 'Site', w.siteName);
    await page.getByRole('button', { name: 'Create the CloudPBX' }).click();
    // Named after the company when no name is given (document 2, createCloudPbx).
    await page.getByRole('heading', { name: new RegExp(`^${w.companyName}`), level: 1 }).waitFor();
    systemId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    // What the service made: the API answers the same CloudPBX for the company.
    const listed = await apiCall(
      run.base,
      admin,
      'GET',
      `/api/svc/vcpprovisioning/v1.0/cloudpbxs?companyId=${w.companyId}`,
    );
    assert.deepEqual(
      listed.data.map((p: { id: string }) => p.id),
      [systemId],
    );
    await page
      .getByRole('table', { name: /What the platform gave/ })
      .getByText('Domain')
      .waitFor();
    await noAxe(cp, 'settings', axeFound);
    await cp.shot('cloudpbx-settings');
    // A setting changed in the form is the service's.
    await choose(cp, 'Language of the prompts', 'French');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const saved = await apiCall(run.base, admin, 'GET', `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}`);
    assert.equal(saved.data.cloudpbx.language, 'fr');
    await page.getByRole('link', { name: 'CloudPBXs', exact: true }).first().click();
    await page.getByText('CloudPBXs: 1 in all').waitFor();
    await page.getByRole('link', { name: w.companyName }).waitFor();
    await noAxe(cp, 'cloudpbxs', axeFound);
    await cp.shot('cloudpbxs');
    cp.clean();
  });

  test('issue 28, point 8: a subscriber and its SIP device through the console; the keys grid lays out the model’s keys', async () => {
    const { page } = cp;
    await page.goto(`/console/cloudpbxs/${systemId}/subscribers`);
    await page.getByRole('heading', { name: 'Subscribers', level: 2 }).waitFor();
    await choose(cp, 'User', new RegExp(w.userName), 'Alice');
    await choose(cp, 'Internal number', '2000');
    await page.getByRole('button', { name: 'Create the subscriber' }).click();
    await page.getByRole('link', { name: w.userName }).waitFor();
    await noAxe(cp, 'subscribers', axeFound);
    await page.getByRole('link', { name: w.userName }).click();
    await page.getByRole('heading', { name: `Subscriber ${w.userName} (2000)` }).waitFor();
    // A new desk phone for the subscriber: a model of 4 programmable keys.
    await choose(cp, 'Model', /SIP-T33G/);
    await page.getByRole('textbox', { name: 'Description' }).fill('Desk phone');
    await page.getByRole('textbox', { name: 'MAC address' }).fill('aa:bb:cc:00:11:22');
    await page.getByRole('button', { name: 'Assign a new device' }).click();
    const grid = page.getByTestId('keys-grid');
    await grid.waitFor();
    assert.equal(await grid.getByRole('button', { name: /^Key \d+,/ }).count(), 4);
    // A speed dial on key 1, shown in its place on the grid.
    await page.getByTestId('key-1').click();
    await page.getByRole('textbox', { name: 'Label' }).fill('Reception');
    await page.getByRole('textbox', { name: 'Number', exact: true }).fill('2000');
    await page.getByRole('button', { name: 'Set key 1' }).click();
    await page.getByRole('button', { name: /^Key 1, speeddial: Reception \(2000\)/ }).waitFor();
    await page
      .getByRole('row', { name: /aa:bb:cc:00:11:22/ })
      .getByText('not registered')
      .waitFor();
    await cp.shot('subscriber');
    // The device's page: its live registrations (none) and a debug session granted.
    await page.getByRole('link', { name: 'Desk phone' }).click();
    await page.getByRole('heading', { name: 'Device Desk phone' }).waitFor();
    await page.getByText(/Live registrations of the device: none now/).waitFor();
    await page.getByRole('button', { name: 'Grant a debug session' }).click();
    await page
      .getByRole('region', { name: 'Debug session' })
      .getByText(/^until /)
      .waitFor();
    await page.getByRole('button', { name: 'Revoke it' }).waitFor();
    // The device is the CloudPBX's, assigned to the subscriber.
    const devices = await apiCall(
      run.base,
      admin,
      'GET',
      `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}/devices`,
    );
    assert.equal(devices.data.length, 1);
    assert.equal(devices.data[0].shortNumber, '2000');
    cp.clean();
  });

  test('issue 28, point 8: a greeting uploaded through the console plays in the page from a blob: URL, and the default is restored', async () => {
    const { page } = cp;
    await page.goto(`/console/cloudpbxs/${systemId}/greetings`);
    const section = page.getByTestId('greeting-officehours');
    await section.waitFor();
    await choose(cp, 'Greeting to replace', 'officehours');
    await page.locator('input[type=file]').setInputFiles({
      name: 'hello.wav',
      mimeType: 'audio/wav',
      buffer: wav('pcm', 1),
    });
    const row = section.getByRole('row', { name: /hello\.wav/ });
    await row.getByText('active').waitFor();
    await noAxe(cp, 'greetings', axeFound);
    await row.getByRole('button', { name: 'Play officehours: hello.wav' }).click();
    const audio = row.getByTestId('audio-player');
    await audio.waitFor();
    const src = await audio.getAttribute('src');
    assert.match(src ?? '', /^blob:/);
    // The browser reads the audio: its metadata loads and no media error is raised.
    await page.waitForFunction(() => {
      const a = document.querySelector<HTMLAudioElement>('[data-testid="audio-player"]');
      return a !== null && a.readyState >= 1;
    });
    assert.equal(await audio.evaluate((a: HTMLAudioElement) => a.error), null);
    await cp.shot('greetings');
    await page.getByRole('button', { name: 'Restore the default officehours' }).click();
    await row.getByRole('button', { name: 'Make active' }).waitFor();
    const list = await apiCall(run.base, admin, 'GET', `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}/greetings`);
    const office = list.data.greetings.filter((g: { greetingId: string }) => g.greetingId === 'officehours');
    assert.deepEqual(
      office.map((g: { fileName: string; isActive: boolean }) => [g.fileName, g.isActive]).sort(),
      [
        ['hello.wav', false],
        [office.find((g: { isDefault: boolean }) => g.isDefault).fileName, true],
      ].sort(),
    );
    cp.clean();
  });

  test('issue 28, point 8: a welcome’s office hours: a period added shows on the week grid, and is saved', async () => {
    const { page } = cp;
    await page.goto(`/console/cloudpbxs/${systemId}/welcome`);
    await page.getByRole('textbox', { name: 'Welcome name' }).fill('Main hours');
    await page.getByRole('button', { name: 'Create the welcome' }).click();
    await page.getByRole('link', { name: 'Office hours of Main hours' }).click();
    await page.getByRole('heading', { name: 'Office hours of Main hours' }).waitFor();
    const saturday = page.getByTestId('day-6');
    // A new welcome opens Monday to Friday, 09:00 to 18:00 (issue 26, point 7): Saturday is closed.
    await page.getByRole('group', { name: 'Monday: open 09:00–18:00' }).waitFor();
    assert.equal(await saturday.getByTestId('open-period').count(), 0);
    await page.getByText('Saturday', { exact: true }).click();
    await page.getByLabel('Opens at').fill('10:00');
    await page.getByLabel('Closes at').fill('12:00');
    await page.getByRole('button', { name: 'Add the period' }).click();
    await page.getByRole('group', { name: 'Saturday: open 10:00–12:00' }).waitFor();
    assert.equal(await saturday.getByTestId('open-period').innerText(), '10:00–12:00');
    // An exception on the calendar: the 20th of the month shown, closed all day.
    const day = page.getByRole('button', { name: /^20 [A-Z][a-z]+ \d{4}$/ }).first();
    await day.click();
    await page.getByRole('button', { name: 'Add the exception' }).click();
    await page.getByText('Exceptions: 1').waitFor();
    assert.equal(await day.getAttribute('aria-description'), 'closed all day');
    await page.getByRole('button', { name: 'Save the office hours' }).click();
    await page.getByText('Office hours saved').waitFor();
    await cp.shot('office-hours');
    // A welcome service answering with these hours, calls going to the subscriber.
    await page.goto(`/console/cloudpbxs/${systemId}/welcome`);
    await page.getByRole('textbox', { name: 'Service name' }).fill('Reception line');
    await choose(cp, 'Welcome (office hours)', 'Main hours');
    await choose(cp, 'Destination', new RegExp(w.userName));
    await page.getByRole('button', { name: 'Create the service' }).click();
    await page.getByRole('row', { name: /Reception line Main hours/ }).waitFor();
    const ivrs = await apiCall(
      run.base,
      admin,
      'GET',
      `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}/ivrs/welcomes`,
    );
    const hours = await apiCall(
      run.base,
      admin,
      'GET',
      `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}/ivrs/${ivrs.data[0].id}/officehours`,
    );
    assert.deepEqual(hours.data.officehours.openhours[6], [['10:00', '12:00']]);
    assert.deepEqual(
      hours.data.officehours.exceptions.map((e: { mday: number; open: boolean }) => [e.mday, e.open]),
      [[20, false]],
    );
    cp.clean();
  });

  test('issue 28, point 4: every section of the CloudPBX opens without error, a DDI and a group made through it', async () => {
    const { page } = cp;
    await page.goto(`/console/cloudpbxs/${systemId}`);
    const sections = page.getByRole('navigation', { name: 'Sections of the CloudPBX' });
    for (const [link, loaded] of [
      ['Numbering plan', /^Ranges of internal numbers$/],
      ['DDIs', /^DDIs: \d+ in all$/],
      ['SIP devices', /^SIP devices: \d+ in all$/],
      ['Groups', /^Groups: \d+ in all$/],
      ['Welcome services', /^Welcome services: \d+ in all$/],
    ] as const) {
      await sections.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: link, level: 2 }).waitFor();
      await page.getByText(loaded).waitFor();
      await noAxe(cp, link, axeFound);
    }
    // The numbering plan names the subscriber's number as taken, in the list the service pages.
    await sections.getByRole('link', { name: 'Numbering plan' }).click();
    await page
      .getByRole('table', { name: /^Numbers of subscribers/ })
      .getByRole('row', { name: new RegExp(`2000 ${w.userName}`) })
      .waitFor();
    await sections.getByRole('link', { name: 'DDIs' }).click();
    await page.getByRole('textbox', { name: 'New DDI' }).fill('+33 1 23 45 67 89');
    await page.getByRole('button', { name: 'Add the DDI' }).click();
    await page.getByRole('cell', { name: '+33123456789', exact: true }).waitFor();
    await choose(cp, 'Free DDI', '+33123456789');
    await choose(cp, 'Assign to user', new RegExp(w.userName), 'Alice');
    await page.getByRole('button', { name: 'Assign the DDI' }).click();
    await page.getByRole('row', { name: new RegExp(`\\+33123456789 ${w.userName}`) }).waitFor();
    await sections.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('textbox', { name: 'Group name' }).fill('Sales');
    // A hunting group holds a number of the plan (2000 is the subscriber's).
    await choose(cp, 'Internal number', '2001');
    await choose(cp, 'Members', new RegExp(w.userName));
    await page.getByRole('button', { name: 'Create the group' }).click();
    await page.getByRole('cell', { name: 'Sales', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Forwards' }).click();
    await page.getByRole('heading', { name: 'Forwards of Sales' }).waitFor();
    cp.clean();
  });

  test('issue 28, point 4: recordings are offered to the company_admin only (recordings.policy.ts)', async () => {
    const { page } = cp;
    await page.goto(`/console/cloudpbxs/${systemId}`);
    const sections = page.getByRole('navigation', { name: 'Sections of the CloudPBX' });
    await sections.getByRole('link', { name: 'Greetings' }).waitFor();
    assert.equal(await sections.getByRole('link', { name: 'Recordings' }).count(), 0);
    const email = `voice-ca-${Date.now()}@example.com`;
    const password = 'Company-admin-1!';
    await apiCall(run.base, admin, 'POST', '/api/svc/admin/v1.0/users', {
      loginEmail: email,
      password,
      companyId: w.companyId,
      firstName: 'Carla',
      lastName: 'Admin',
      roles: ['company_admin'],
      adminType: 'company_admin',
    });
    const ca = await run.open();
    await signIn(ca, email, password);
    await ca.page.goto(`/console/cloudpbxs/${systemId}`);
    const own = ca.page.getByRole('navigation', { name: 'Sections of the CloudPBX' });
    await own.getByRole('link', { name: 'Recordings' }).click();
    await ca.page.getByText('Recordings: 0 in all').waitFor();
    ca.clean();
    await ca.context.close();
  });

  test('issue 28, point 4: a site_admin reads the CloudPBX of its site but is offered no change (pbx.policy.ts)', async () => {
    const email = `voice-sa-${Date.now()}@example.com`;
    const password = 'Site-admin-1!pass';
    await apiCall(run.base, admin, 'POST', '/api/svc/admin/v1.0/users', {
      loginEmail: email,
      password,
      companyId: w.companyId,
      siteId: w.siteId,
      firstName: 'Sam',
      lastName: 'Site',
      roles: ['site_admin'],
      adminType: 'site_admin',
    });
    const sa = await run.open();
    await signIn(sa, email, password);
    await sa.page.getByRole('link', { name: 'CloudPBXs' }).click();
    await sa.page.getByText('CloudPBXs: 1 in all').waitFor();
    assert.equal(await sa.page.getByRole('link', { name: 'New CloudPBX' }).count(), 0);
    await sa.page.goto(`/console/cloudpbxs/${systemId}`);
    await sa.page.getByRole('textbox', { name: 'Name' }).waitFor();
    assert.ok(await sa.page.getByRole('textbox', { name: 'Name' }).isDisabled());
    assert.equal(await sa.page.getByRole('button', { name: 'Save the settings' }).count(), 0);
    assert.equal(await sa.page.getByRole('button', { name: 'Delete the CloudPBX' }).count(), 0);
    await sa.page.goto(`/console/cloudpbxs/${systemId}/subscribers`);
    await sa.page.getByRole('link', { name: w.userName }).waitFor();
    assert.equal(await sa.page.getByRole('button', { name: 'Create the subscriber' }).count(), 0);
    await sa.page.goto(`/console/cloudpbxs/${systemId}/greetings`);
    await sa.page
      .getByTestId('greeting-officehours')
      .getByRole('button', { name: /^Play / })
      .first()
      .waitFor();
    assert.equal(await sa.page.locator('input[type=file]').count(), 0);
    assert.equal(await sa.page.getByRole('button', { name: 'Make active' }).count(), 0);
    sa.clean();
    await sa.context.close();
  });

  test('issue 28, point 7: axe finds no serious violation on the CloudPBX list, settings, subscribers, greetings and other sections', () => {
    assert.deepEqual(axeFound, []);
  });
});
