// Greetings of a CloudPBX: document 2, Greeting and Greetings; routes.md, CloudPBX (listGreetings
// ... uploadGreeting); issue 26, points 3, 8 and 9. Decisions in docs/decisions.md, "CloudPBX:
// greetings".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { greetingFiles } from '../../src/modules/pbx/greetings.tables.ts';
import { groups } from '../../src/modules/pbx/groups.tables.ts';
import { ivrs } from '../../src/modules/pbx/ivrs.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { DEFAULT_AUDIO, sweepGreetingFiles, SWEEP_GRACE_MS } from '../../src/modules/pbx/greetings.service.ts';
import { audioKey } from '../../src/modules/pbx/audio.ts';
import { createPbx, PBXS } from './fixtures.ts';
import { mp3, wav } from './audio-fixtures.ts';

let t: TestApp;
let dataDir: string;
let ec1: string;
let ecAdmin: MadeUser;
let siteAdmin: MadeUser;
let support: MadeUser;
let otherAdmin: MadeUser;
let pbx: Record<string, any>;
let pbx2: Record<string, any>;
let G: string;
let huntId: string;
let maId: string;
let wsId: string;
let welcomeId: string;

const files = () => portsOf(t.deps).files;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, token = t.superToken, headers: Record<string, string> = {}) =>
  t.inject({ method, url, headers: { ...bearer(token), ...headers } });

const upload = (url: string, body: Buffer, type = 'audio/wav', token = t.superToken) =>
  t.inject({ method: 'PUT', url, headers: { ...bearer(token), 'content-type': type }, payload: body });

async function uploaded(url: string, body: Buffer, type = 'audio/wav'): Promise<Record<string, any>> {
  const res = await upload(url, body, type);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** Audio files under the CloudPBX's folder (temporary ones included). */
async function storedNames(): Promise<string[]> {
  const all = await readdir(join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
  return all.filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

async function insertGroup(type: 'hunting_group' | 'manager_assistant', cloudPbxId = pbx.id): Promise<string> {
  const id = newId();
  const n = 700 + Math.floor(Math.random() * 200);
  await t.db.insert(groups).values({
    id,
    cloudPbxId,
    name: `G ${id}`,
    type,
    shortNumber: type === 'hunting_group' ? String(n) : null,
    shortNumberValue: type === 'hunting_group' ? n : null,
  });
  return id;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'greetings-test-'));
  t = await createTestApp({ config: { dataDir } });
  const bp = await makeCompany(t, { name: 'Greet BP', isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { name: 'Greet EC', bpId: bp });
  const ec2 = await makeCompany(t, { name: 'Greet other EC' });
  const site1 = await makeSite(t, ec1);
  ecAdmin = await makeUser(t, ec1, ['company_admin']);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1 });
  support = await makeUser(t, bp, ['support']);
  otherAdmin = await makeUser(t, ec2, ['company_admin']);
  pbx = await createPbx(t, ec1, { siteId: site1, language: 'fr' });
  pbx2 = await createPbx(t, ec2);
  G = `${PBXS}/${pbx.id}/greetings`;
  huntId = await insertGroup('hunting_group');
  maId = await insertGroup('manager_assistant');
  welcomeId = newId();
  await t.db.insert(ivrs).values({ id: welcomeId, cloudPbxId: pbx.id, kind: 'welcome', name: 'W' });
  wsId = newId();
  await t.db.insert(ivrs).values({ id: wsId, cloudPbxId: pbx.id, kind: 'welcomeservice', name: 'WS', welcomeId });
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('issue 26, point 3: scopes and their greetingIds', () => {
  const cases: [string, () => string, string[]][] = [
    ['company (no selector)', () => '', ['music_on_hold', 'officehours', 'afterhours']],
    ['a welcome service (ivrId)', () => `?ivrId=${wsId}`, ['officehours', 'afterhours', 'menu_key_action_0']],
    ['an auto attendant menu (autoAttendantMenuId)', () => `?autoAttendantMenuId=${wsId}`, ['menu_key_action_0']],
    ['a hunting group (groupId)', () => `?groupId=${huntId}`, ['hg_unavailable']],
    ['the console attendant (attendant=true)', () => '?attendant=true', ['attendant_on_hold']],
  ];
  for (const [what, query, ids] of cases) {
    it(`issue 26, point 3: the list of ${what} gives every greetingId of the scope with its default of the CloudPBX's language, active`, async () => {
      const res = await req('GET', `${G}${query()}`);
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.greetings.map((g: any) => g.greetingId)).toEqual(ids);
      for (const g of data.greetings) {
        expect(g).toEqual({
          greetingId: g.greetingId,
          fileId: `default_${g.greetingId}_fr`,
          fileName: `${g.greetingId}_fr.wav`,
          description: g.description,
          size: DEFAULT_AUDIO.length,
          duration: 1,
          isDefault: true,
          isActive: true,
        });
      }
    });
  }

  it('issue 26, point 3: the list names its scope (groupId, ivrId, autoAttendantMenuId, attendant)', async () => {
    expect((await req('GET', `${G}?groupId=${huntId}`)).json().data.groupId).toBe(huntId);
    expect((await req('GET', `${G}?ivrId=${wsId}`)).json().data.ivrId).toBe(wsId);
    expect((await req('GET', `${G}?attendant=true`)).json().data.attendant).toBe(true);
    expect(Object.keys((await req('GET', G)).json().data)).toEqual(['greetings']);
  });

  it('issue 26, point 3: another greetingId in a scope is 400 (upload and restore), before the body is read', async () => {
    let res = await upload(`${G}/hg_unavailable`, wav('pcm', 1));
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400866);
    expect(res.json().errorDetails.allowed).toEqual(['music_on_hold', 'officehours', 'afterhours']);
    res = await upload(`${G}/music_on_hold?groupId=${huntId}`, wav('pcm', 1));
    expect(res.json().errorDetailsCode).toBe(400866);
    res = await req('POST', `${G}/officehours/restore?attendant=true`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400866);
    res = await upload(`${G}/nonsense`, wav('pcm', 1));
    expect(res.json().errorDetailsCode).toBe(400866);
  });

  it('issue 26, point 3: a scope not of this CloudPBX (a manager-assistant group, a welcome, another CloudPBX’s group) is 400 naming the selector; two selectors are 400', async () => {
    const otherGroup = await insertGroup('hunting_group', pbx2.id);
    for (const [q, field] of [
      [`groupId=${maId}`, 'groupId'],
      [`groupId=${otherGroup}`, 'groupId'],
      [`ivrId=${welcomeId}`, 'ivrId'],
      [`ivrId=nope`, 'ivrId'],
      [`autoAttendantMenuId=${huntId}`, 'autoAttendantMenuId'],
    ]) {
      const res = await req('GET', `${G}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errorDetailsCode).toBe(400868);
      expect(res.json().errorDetails.field).toBe(field);
    }
    const res = await req('GET', `${G}?groupId=${huntId}&attendant=true`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400867);
    // attendant=false names no scope: the company's.
    expect((await req('GET', `${G}?attendant=false`)).json().data.greetings).toHaveLength(3);
  });

  it('issue 26, point 3: a default file is there for each of the nine languages, its audio a valid WAV', async () => {
    for (const lang of ['ro', 'es', 'it', 'de', 'fr', 'en', 'ar', 'he', 'nl']) {
      const res = await req('GET', `${G}/default_officehours_${lang}`);
      expect(res.statusCode, lang).toBe(200);
      expect(res.json().data).toMatchObject({
        fileName: `officehours_${lang}.wav`,
        isDefault: true,
        isActive: lang === 'fr',
      });
      const audio = await req('GET', `${G}/default_officehours_${lang}/audio`);
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toMatch(/^audio\/wav/);
      expect(audio.rawPayload.equals(DEFAULT_AUDIO)).toBe(true);
    }
    // A default of a greetingId not of the scope does not exist there.
    expect((await req('GET', `${G}/default_hg_unavailable_fr`)).statusCode).toBe(404);
    expect((await req('GET', `${G}/default_hg_unavailable_fr?groupId=${huntId}`)).statusCode).toBe(200);
  });
});

describe('issue 26, point 3: upload, get, download, activate, restore, delete, reset', () => {
  it('issue 26, point 3: PUT stores a new active, non-default file with size and duration from the audio; the one it replaces stays stored, inactive', async () => {
    const first = await uploaded(`${G}/officehours?fileName=hello.wav`, wav('alaw', 2.5));
    expect(first).toEqual({
      greetingId: 'officehours',
      fileId: first.fileId,
      fileName: 'hello.wav',
      description: first.description,
      size: wav('alaw', 2.5).length,
      duration: 2.5,
      isDefault: false,
      isActive: true,
    });
    // Declared as WAV, MP3 inside: the content decides.
    const second = await uploaded(`${G}/officehours`, mp3(2), 'audio/wav');
    expect(second.fileName).toBe('officehours.mp3');
    expect(second.duration).toBeGreaterThan(1.9);
    const list = (await req('GET', G)).json().data.greetings.filter((g: any) => g.greetingId === 'officehours');
    expect(list.map((g: any) => [g.fileId, g.isActive])).toEqual([
      ['default_officehours_fr', false],
      [first.fileId, false],
      [second.fileId, true],
    ]);
    const got = await req('GET', `${G}/${first.fileId}`);
    expect(got.json().data).toEqual({ ...first, isActive: false });
  });

  it('issue 26, point 3: the audio is answered with its Content-Type and Content-Length, and a Range request is answered 206 with those bytes', async () => {
    const body = wav('ulaw', 1.5);
    const g = await uploaded(`${G}/afterhours`, body, 'application/octet-stream');
    const res = await req('GET', `${G}/${g.fileId}/audio`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^audio\/wav/);
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(body)).toBe(true);
    const part = await req('GET', `${G}/${g.fileId}/audio`, t.superToken, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${body.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.equals(body.subarray(100, 200))).toBe(true);
    const tail = await req('GET', `${G}/${g.fileId}/audio`, t.superToken, { range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(body.subarray(body.length - 10))).toBe(true);
    const none = await req('GET', `${G}/${g.fileId}/audio`, t.superToken, { range: `bytes=${body.length + 5}-` });
    expect(none.statusCode).toBe(416);
    const mp = await uploaded(`${G}/music_on_hold`, mp3(1));
    const m = await req('GET', `${G}/${mp.fileId}/audio`);
    expect(m.headers['content-type']).toMatch(/^audio\/mpeg/);
  });

  it('issue 26, point 3: activate makes a stored file active (the active one inactive); restore makes the default of the CloudPBX’s language active', async () => {
    const a = await uploaded(`${G}/officehours?ivrId=${wsId}`, wav('pcm', 1));
    const b = await uploaded(`${G}/officehours?ivrId=${wsId}`, wav('pcm', 2));
    let res = await req('POST', `${G}/${a.fileId}/activate`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ fileId: a.fileId, isActive: true });
    expect((await req('GET', `${G}/${b.fileId}`)).json().data.isActive).toBe(false);
    res = await req('POST', `${G}/officehours/restore?ivrId=${wsId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ fileId: 'default_officehours_fr', isDefault: true, isActive: true });
    const list = (await req('GET', `${G}?ivrId=${wsId}`))
      .json()
      .data.greetings.filter((g: any) => g.greetingId === 'officehours');
    expect(list.filter((g: any) => g.isActive).map((g: any) => g.fileId)).toEqual(['default_officehours_fr']);
    // The company's officehours is another scope: untouched.
    expect(
      (await req('GET', G)).json().data.greetings.find((g: any) => g.greetingId === 'officehours' && g.isActive)
        .isDefault,
    ).toBe(false);
    // Activating the default of the CloudPBX's language is the same as restoring; another language's is 409.
    await req('POST', `${G}/${b.fileId}/activate`);
    res = await req('POST', `${G}/default_officehours_fr/activate?ivrId=${wsId}`);
    expect(res.json().data).toMatchObject({ isDefault: true, isActive: true });
    res = await req('POST', `${G}/default_officehours_en/activate?ivrId=${wsId}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409861);
  });

  it('issue 26, point 3: DELETE of a file: only a stored, non-active, non-default one (409 otherwise); its audio goes after its row', async () => {
    const old = await uploaded(
      `${G}/afterhours?attendant=true`.replace('afterhours', 'attendant_on_hold'),
      wav('pcm', 1),
    );
    const cur = await uploaded(`${G}/attendant_on_hold?attendant=true`, wav('pcm', 1));
    let res = await req('DELETE', `${G}/${cur.fileId}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409860);
    res = await req('DELETE', `${G}/default_attendant_on_hold_fr?attendant=true`);
    expect(res.statusCode).toBe(409);
    const [row] = await t.db.select().from(greetingFiles).where(eq(greetingFiles.id, old.fileId));
    expect(await files().size(row.storageKey)).toBe(row.size);
    res = await req('DELETE', `${G}/${old.fileId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await files().size(row.storageKey)).toBe(undefined);
    expect((await req('GET', `${G}/${old.fileId}`)).statusCode).toBe(404);
    expect((await req('DELETE', `${G}/${old.fileId}`)).statusCode).toBe(404);
  });

  it('issue 26, point 3: DELETE C/greetings restores every greeting of the scope to its default and deletes its stored files (other scopes untouched)', async () => {
    const q = `?groupId=${huntId}`;
    await uploaded(`${G}/hg_unavailable${q}`, wav('pcm', 1));
    await uploaded(`${G}/hg_unavailable${q}`, wav('pcm', 1));
    const keys = (await t.db.select().from(greetingFiles).where(eq(greetingFiles.scopeId, huntId))).map(
      (r) => r.storageKey,
    );
    expect(keys).toHaveLength(2);
    const companyBefore = (await req('GET', G)).json().data.greetings.length;
    const res = await req('DELETE', `${G}${q}`);
    expect(res.statusCode, res.body).toBe(200);
    const list = (await req('GET', `${G}${q}`)).json().data.greetings;
    expect(list).toEqual([expect.objectContaining({ fileId: 'default_hg_unavailable_fr', isActive: true })]);
    for (const k of keys) expect(await files().size(k)).toBe(undefined);
    expect((await req('GET', G)).json().data.greetings.length).toBe(companyBefore);
  });

  it('issue 26, point 3: refused audio (not audio, empty, truncated, too long, another codec) is 400 naming what is wrong, and nothing is stored', async () => {
    const before = await storedNames();
    const rows = (await t.db.select().from(greetingFiles)).length;
    const float = wav('pcm', 1);
    float.writeUInt16LE(3, 20);
    for (const [body, code] of [
      [Buffer.from('not audio at all, just text'), 400861],
      [wav('pcm', 2).subarray(0, 5000), 400863],
      [wav('alaw', 601), 400865],
      [float, 400862],
    ] as const) {
      const res = await upload(`${G}/officehours`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDetailsCode).toBe(code);
      expect(res.json().errorMsg).toMatch(/^Bad Request: /);
    }
    const empty = await upload(`${G}/officehours`, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(await storedNames()).toEqual(before);
    expect((await t.db.select().from(greetingFiles)).length).toBe(rows);
  });

  it('issue 26, point 3: more than 10 MB is 413 and nothing is stored (declared length, or counted on the stream)', async () => {
    const before = await storedNames();
    const big = Buffer.concat([wav('pcm', 1), Buffer.alloc(10 * 1024 * 1024)]);
    let res = await upload(`${G}/officehours`, big);
    expect(res.statusCode).toBe(413);
    // No Content-Length: the limit is counted on the stream.
    res = await t.inject({
      method: 'PUT',
      url: `${G}/officehours`,
      headers: { ...bearer(t.superToken), 'content-type': 'audio/wav', 'transfer-encoding': 'chunked' },
      payload: Readable.from([big.subarray(0, 6_000_000), big.subarray(6_000_000)]),
    });
    expect(res.statusCode).toBe(413);
    expect(await storedNames()).toEqual(before);
  });

  it('issue 26, point 3: a fileId of another CloudPBX is 404 there', async () => {
    const g = await uploaded(`${G}/music_on_hold`, wav('pcm', 1));
    const other = `${PBXS}/${pbx2.id}/greetings/${g.fileId}`;
    expect((await req('GET', other)).statusCode).toBe(404);
    expect((await req('GET', `${other}/audio`)).statusCode).toBe(404);
    expect((await req('POST', `${other}/activate`)).statusCode).toBe(404);
    expect((await req('DELETE', other)).statusCode).toBe(404);
  });
});

describe('doc 2, greetings: who may', () => {
  it('doc 2, greetings: reads by the readers of the CloudPBX (site_admin of its site, support); writes not (403); another company’s admin 404', async () => {
    const g = await uploaded(`${G}/music_on_hold`, wav('pcm', 1));
    for (const u of [ecAdmin, siteAdmin, support]) {
      expect((await req('GET', G, u.token)).statusCode).toBe(200);
      expect((await req('GET', `${G}/${g.fileId}/audio`, u.token)).statusCode).toBe(200);
    }
    expect((await upload(`${G}/music_on_hold`, wav('pcm', 1), 'audio/wav', ecAdmin.token)).statusCode).toBe(200);
    for (const u of [siteAdmin, support]) {
      expect((await upload(`${G}/music_on_hold`, wav('pcm', 1), 'audio/wav', u.token)).statusCode).toBe(403);
      expect((await req('POST', `${G}/${g.fileId}/activate`, u.token)).statusCode).toBe(403);
    }
    expect((await req('GET', G, otherAdmin.token)).statusCode).toBe(404);
    expect((await upload(`${G}/music_on_hold`, wav('pcm', 1), 'audio/wav', otherAdmin.token)).statusCode).toBe(404);
  });
});

describe('issue 26, point 8: storage', () => {
  it('issue 26, point 8: the audio lives in the files port under pbx/<companyId>/<cloudPbxId>/greetings/<fileId>, written before its row', async () => {
    const g = await uploaded(`${G}/music_on_hold`, wav('pcm', 1));
    const [row] = await t.db.select().from(greetingFiles).where(eq(greetingFiles.id, g.fileId));
    expect(row.storageKey).toBe(audioKey(ec1, pbx.id, 'greetings', g.fileId));
    expect(row.storageKey).toBe(`pbx/${ec1}/${pbx.id}/greetings/${g.fileId}`);
    expect(await files().size(row.storageKey)).toBe(row.size);
    // On the data folder: DATA_DIR/files/<key>.
    expect(await storedNames()).toContain(join(dataDir, 'files', row.storageKey));
  });

  it('issue 26, point 8: when the row cannot commit, the audio written for it is removed (no file kept, no row)', async () => {
    const before = await storedNames();
    // The CloudPBX vanishes between the upload's storage and its row: the transaction fails.
    const ghost = await createPbx(t, await makeCompany(t, { name: 'Greet ghost EC' }));
    const url = `${PBXS}/${ghost.id}/greetings/music_on_hold`;
    const control = portsOf(t.deps).controls.files;
    const release = control.hold();
    const pending = upload(url, wav('pcm', 1));
    await new Promise((r) => setTimeout(r, 50));
    await t.db.delete(cloudPbxs).where(eq(cloudPbxs.id, ghost.id));
    release();
    const res = await pending;
    expect(res.statusCode).toBe(404);
    expect(await storedNames()).toEqual(before);
  });

  it('issue 26, point 8: the sweep removes audio no row names (older than its grace period), and the files of scopes whose group is gone', async () => {
    const now = t.deps.now();
    const orphan = audioKey(ec1, pbx.id, 'greetings', newId());
    await files().put(orphan, wav('pcm', 1), 'audio/wav');
    const g = await uploaded(`${G}/hg_unavailable?groupId=${huntId}`, wav('pcm', 1));
    const [row] = await t.db.select().from(greetingFiles).where(eq(greetingFiles.id, g.fileId));
    // Within the grace period nothing goes (an upload may be about to commit its row).
    let out = await sweepGreetingFiles(t.db, files(), new Date(Date.now() - 1000));
    expect(out.removedFiles).toBe(0);
    expect(await files().size(orphan)).toBeGreaterThan(0);
    // Past it, the orphan goes; a file its row names stays.
    out = await sweepGreetingFiles(t.db, files(), new Date(Date.now() + SWEEP_GRACE_MS + 1000));
    expect(out.removedFiles).toBeGreaterThan(0);
    expect(await files().size(orphan)).toBe(undefined);
    expect(await files().size(row.storageKey)).toBe(row.size);
    // The group is deleted (by its own operation: a row gone): its greeting files go with the next sweep.
    await t.db.delete(groups).where(eq(groups.id, huntId));
    out = await sweepGreetingFiles(
      t.db,
      files(),
      new Date(Math.max(Date.now(), now.getTime()) + SWEEP_GRACE_MS + 1000),
    );
    expect(out.removedRows).toBeGreaterThan(0);
    expect(await files().size(row.storageKey)).toBe(undefined);
    expect(await t.db.select().from(greetingFiles).where(eq(greetingFiles.id, g.fileId))).toEqual([]);
    huntId = await insertGroup('hunting_group');
  });

  it('issue 26, point 8: the sweep is a scheduled job of the background (hourly)', async () => {
    const { GREETING_SWEEP_JOB, defineGreetingJobs } = await import('../../src/modules/pbx/greetings.jobs.ts');
    const scheduled: [string, string][] = [];
    const defined: string[] = [];
    const queue = {
      define: async (name: string) => void defined.push(name),
      schedule: async (name: string, cron: string) => void scheduled.push([name, cron]),
    };
    await defineGreetingJobs(queue as never, { db: t.db, ports: portsOf(t.deps), now: t.deps.now } as never);
    expect(defined).toEqual([GREETING_SWEEP_JOB]);
    expect(scheduled).toEqual([[GREETING_SWEEP_JOB, '23 * * * *']]);
  });

  it('issue 26, point 3: an upload tells the CloudPBX’s gateway (outbox)', async () => {
    const g = await uploaded(`${G}/music_on_hold`, wav('pcm', 1));
    const rows = await t.db.select().from(outbox);
    expect(rows.some((r) => r.stanza.includes('<greeting ') && r.stanza.includes(g.fileId))).toBe(true);
  });
});

describe('issue 26, point 9: uploads stream to storage', () => {
  it('issue 26, point 9: 20 concurrent 10 MB uploads over HTTP hold under 200 MB more memory (the bodies alone would be 200 MB)', async () => {
    // A WAV of just under 10 MB, sent in 64 KB chunks by 20 concurrent requests over a real connection.
    const seconds = Math.floor((10 * 1024 * 1024 - 44) / 32000);
    const body = wav('pcm', seconds, 16000);
    expect(body.length).toBeLessThanOrEqual(10 * 1024 * 1024);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = () =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const r = http.request(
          `${address}${G}/music_on_hold`,
          { method: 'PUT', headers: { ...bearer(t.superToken), 'content-type': 'audio/wav' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        r.on('error', reject);
        Readable.from(
          (function* () {
            for (let i = 0; i < body.length; i += 65536) yield body.subarray(i, i + 65536);
          })(),
        ).pipe(r);
      });
    const base = process.memoryUsage().rss;
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - base)), 5);
    const results = await Promise.all(Array.from({ length: 20 }, send));
    clearInterval(sample);
    for (const r of results) expect(r.status, r.body).toBe(200);
    for (const r of results) expect(JSON.parse(r.body).data.size).toBe(body.length);
    expect(peak).toBeLessThan(200 * 1024 * 1024);
  });
});
