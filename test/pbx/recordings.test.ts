// Call recordings of a CloudPBX (document 2, Recording and Recordings; routes.md, CloudPBX:
// ingestRecording ... setRecordingAnnouncementProfile; issue 26, point 5 and its pinned contract
// details). Decisions in docs/decisions.md, "CloudPBX: recordings". The consultation tests insert
// their recordings directly (with audio behind the files port); the ingestion tests post them.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { recordings } from '../../src/modules/pbx/recordings.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { newId } from '../../src/shared/ids.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';
import { mp3, wav } from './audio-fixtures.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';

let t: TestApp;
let ec1: string;
let ec2: string;
let ecAdmin: MadeUser;
let otherAdmin: MadeUser;
let bpAdmin: MadeUser;
let siteAdmin: MadeUser;
let support: MadeUser;
let plainUser: MadeUser;
let alice: MadeUser;
let bob: MadeUser;
let pbx1: Record<string, any>;
let pbx2: Record<string, any>;
let aliceSub: string;
let bobSub: string;
let R1: string;
let R2: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.inject({
    method,
    url,
    headers: { ...bearer(token), ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const files = () => portsOf(t.deps).files;

/** A recording inserted directly, with `bytes` as its audio behind the files port. */
async function insertRecording(
  pbx: Record<string, any>,
  o: {
    date: string;
    duration?: number;
    direction?: 'in' | 'out';
    otherNumber?: string;
    phoneNumberId?: string;
    userId?: string;
    name?: string;
    number?: string;
    bytes?: Buffer;
  },
): Promise<string> {
  const id = newId();
  const storageKey = `pbx/${pbx.companyId}/${pbx.id}/recordings/${id}`;
  const bytes = o.bytes ?? Buffer.from(`audio of ${id}`);
  await files().put(storageKey, bytes, 'audio/wav');
  await t.db.insert(recordings).values({
    id,
    cloudPbxId: pbx.id,
    date: new Date(o.date),
    direction: o.direction ?? 'in',
    otherNumber: o.otherNumber ?? '+33100000000',
    recordedUserId: o.userId ?? null,
    recordedPhoneNumberId: o.phoneNumberId ?? null,
    recordedName: o.name ?? '',
    recordedNumber: o.number ?? '',
    storageKey,
    mediaType: 'audio/wav',
    size: bytes.length,
    duration: o.duration ?? 30,
  });
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  const bp = await makeCompany(t, { name: 'Rec BP', isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { name: 'Rec EC', bpId: bp });
  ec2 = await makeCompany(t, { name: 'Rec other EC' });
  await t.db
    .update(companies)
    .set({ allowCloudPbxRecording: true, cloudPbxRecordingInboundOnly: false })
    .where(eq(companies.id, ec1));
  const site1 = await makeSite(t, ec1);
  ecAdmin = await makeUser(t, ec1, ['company_admin']);
  otherAdmin = await makeUser(t, ec2, ['company_admin']);
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1 });
  support = await makeUser(t, bp, ['support']);
  plainUser = await makeUser(t, ec1);
  alice = await makeUser(t, ec1);
  bob = await makeUser(t, ec1);
  await t.db.update(users).set({ firstName: 'Alice', lastName: 'Martin' }).where(eq(users.id, alice.id));
  await t.db.update(users).set({ firstName: 'Bob', lastName: 'Durand' }).where(eq(users.id, bob.id));
  pbx1 = await createPbx(t, ec1, { siteId: site1 });
  pbx2 = await createPbx(t, ec2);
  aliceSub = await seedSubscriber(t, pbx1.id, alice.id, '201');
  bobSub = await seedSubscriber(t, pbx1.id, bob.id, '202');
  R1 = `${PBXS}/${pbx1.id}/recordings`;
  R2 = `${PBXS}/${pbx2.id}/recordings`;
});

afterAll(async () => {
  await t?.close();
});

describe('issue 26, point 5: who consults recordings', () => {
  let id: string;
  beforeAll(async () => {
    id = await insertRecording(pbx1, {
      date: '2026-11-20T10:00:00Z',
      phoneNumberId: aliceSub,
      name: 'Alice Martin',
      number: '201',
    });
  });

  it('issue 26, point 5: the company_admin of the CloudPBX’s company lists, reads, downloads and deletes', async () => {
    const tok = ecAdmin.token;
    expect((await req('GET', R1, tok)).statusCode).toBe(200);
    expect((await req('GET', `${R1}/${id}`, tok)).statusCode).toBe(200);
    expect((await req('GET', `${R1}/${id}/audio`, tok)).statusCode).toBe(200);
    const other = await insertRecording(pbx1, { date: '2026-11-20T10:00:00Z' });
    expect((await req('DELETE', `${R1}/${other}`, tok)).statusCode).toBe(200);
    const more = await insertRecording(pbx1, { date: '2026-11-20T10:00:00Z' });
    expect((await req('DELETE', `${R1}?recordIds=${more}`, tok)).statusCode).toBe(200);
  });

  it('issue 26, point 5: every other role that can see the CloudPBX, superadmin and bp_admin included, gets 403', async () => {
    // (organization_admin: in the authorisation matrix, where the company belongs to an organisation.)
    for (const tok of [t.superToken, bpAdmin.token, support.token, siteAdmin.token]) {
      for (const [m, url] of [
        ['GET', R1],
        ['GET', `${R1}/${id}`],
        ['GET', `${R1}/${id}/audio`],
        ['DELETE', `${R1}/${id}`],
        ['DELETE', `${R1}?recordIds=${id}`],
      ] as const) {
        const res = await req(m, url, tok);
        expect(res.statusCode, `${m} ${url}: ${res.body}`).toBe(403);
      }
    }
    const [still] = await t.db.select().from(recordings).where(eq(recordings.id, id));
    expect(still?.id).toBe(id);
  });

  it('issue 26, point 5: a caller who cannot see the CloudPBX gets 404 (another company’s admin, a plain user)', async () => {
    for (const tok of [otherAdmin.token, plainUser.token]) {
      expect((await req('GET', R1, tok)).statusCode).toBe(404);
      expect((await req('GET', `${R1}/${id}`, tok)).statusCode).toBe(404);
      expect((await req('GET', `${R1}/${id}/audio`, tok)).statusCode).toBe(404);
      expect((await req('DELETE', `${R1}/${id}`, tok)).statusCode).toBe(404);
    }
  });

  it('issue 26, point 5: a recording under another CloudPBX’s path is 404', async () => {
    expect((await req('GET', `${R2}/${id}`, otherAdmin.token)).statusCode).toBe(404);
  });
});

describe('doc 2, list recordings', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    // A CloudPBX of its own so that the totals are this block's.
    const ec = await makeCompany(t, { name: 'Rec list EC' });
    const admin = await makeUser(t, ec, ['company_admin']);
    const pbx = await createPbx(t, ec);
    const carol = await makeUser(t, ec);
    const dave = await makeUser(t, ec);
    await t.db.update(users).set({ firstName: 'Carol', lastName: 'Petit' }).where(eq(users.id, carol.id));
    const carolSub = await seedSubscriber(t, pbx.id, carol.id, '211');
    const daveSub = await seedSubscriber(t, pbx.id, dave.id, '212');
    ids = {
      a: await insertRecording(pbx, {
        date: '2026-11-01T09:00:00Z',
        phoneNumberId: carolSub,
        name: 'Carol Petit',
        number: '211',
        otherNumber: '+33612345678',
        duration: 10,
      }),
      b: await insertRecording(pbx, {
        date: '2026-11-05T09:00:00Z',
        phoneNumberId: daveSub,
        name: 'Dave Roux',
        number: '212',
        otherNumber: '+33698765432',
        duration: 50,
      }),
      c: await insertRecording(pbx, {
        date: '2026-11-10T09:00:00Z',
        phoneNumberId: carolSub,
        name: 'Carol Petit',
        number: '211',
        otherNumber: '212',
        duration: 20,
      }),
      d: await insertRecording(pbx, {
        date: '2026-11-15T09:00:00Z',
        phoneNumberId: daveSub,
        name: 'Dave Roux',
        number: '212',
        otherNumber: '+4930123456',
        duration: 40,
      }),
    };
    listOf = async (query = '') => {
      const res = await req('GET', `${PBXS}/${pbx.id}/recordings${query}`, admin.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    carolId = carolSub;
  });
  let listOf: (query?: string) => Promise<any>;
  let carolId: string;
  const idsOf = (body: any) => body.data.map((r: any) => r.id);

  it('doc 2, list recordings: sortField date and sortOrder -1 by default (newest first), with {data, limit, offset, total}', async () => {
    const body = await listOf();
    expect(idsOf(body)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(body).toMatchObject({ limit: 100, offset: 0, total: 4 });
    expect(idsOf(await listOf('?sortOrder=1'))).toEqual([ids.a, ids.b, ids.c, ids.d]);
    expect(idsOf(await listOf('?sortField=duration&sortOrder=1'))).toEqual([ids.a, ids.c, ids.d, ids.b]);
    const page = await listOf('?limit=2&offset=1');
    expect(idsOf(page)).toEqual([ids.c, ids.b]);
    expect(page).toMatchObject({ limit: 2, offset: 1, total: 4 });
  });

  it('issue 26, point 9: pages of one, put together, are the whole list in every order (ties by name and number broken by id)', async () => {
    // The page's ids are read first and its rows after (recordings.repo.ts): the pages must keep
    // the list's order, ties included.
    for (const sortField of ['date', 'duration', 'recordedName', 'recordedNumber', 'otherNumber'])
      for (const sortOrder of [1, -1]) {
        const q = `?sortField=${sortField}&sortOrder=${sortOrder}`;
        const whole = idsOf(await listOf(q));
        const pages: string[] = [];
        for (let offset = 0; offset < whole.length; offset++)
          pages.push(...idsOf(await listOf(`${q}&limit=1&offset=${offset}`)));
        expect(pages).toEqual(whole);
        expect(whole).toHaveLength(4);
      }
  });

  it('doc 2, list recordings: fromDate and toDate bound the date (inclusive)', async () => {
    const body = await listOf('?fromDate=2026-11-05T09:00:00Z&toDate=2026-11-10T09:00:00Z');
    expect(idsOf(body)).toEqual([ids.c, ids.b]);
    expect(body.total).toBe(2);
    expect(idsOf(await listOf('?fromDate=2026-11-12T00:00:00Z'))).toEqual([ids.d]);
    expect(idsOf(await listOf('?toDate=2026-11-02T00:00:00Z'))).toEqual([ids.a]);
  });

  it('doc 2, list recordings: phoneNumberId, and recordedName, recordedNumber, otherNumber as substrings', async () => {
    expect(idsOf(await listOf(`?phoneNumberId=${carolId}`))).toEqual([ids.c, ids.a]);
    expect(idsOf(await listOf('?recordedName=roux'))).toEqual([ids.d, ids.b]);
    expect(idsOf(await listOf('?recordedNumber=11'))).toEqual([ids.c, ids.a]);
    expect(idsOf(await listOf('?otherNumber=%2B336'))).toEqual([ids.b, ids.a]);
    const none = await listOf('?otherNumber=%25');
    expect(none).toMatchObject({ data: [], total: 0 });
  });

  it('issue 26, point 9: the remembered list answer is exact after each write to pbx_recordings (insert, update, delete)', async () => {
    const first = await listOf('?fromDate=2026-11-01T00:00:00Z');
    expect(first.total).toBe(4);
    expect((await listOf('?fromDate=2026-11-01T00:00:00Z')).total).toBe(4);
    const [any] = await t.db.select().from(recordings).where(eq(recordings.id, ids.a));
    const extra = await insertRecording({ id: any.cloudPbxId, companyId: 'x' }, { date: '2026-11-20T09:00:00Z' });
    const after = await listOf('?fromDate=2026-11-01T00:00:00Z');
    expect(after.total).toBe(5);
    expect(after.data[0].id).toBe(extra);
    await t.db.update(recordings).set({ otherNumber: '+33999' }).where(eq(recordings.id, extra));
    expect((await listOf('?fromDate=2026-11-01T00:00:00Z')).data[0].otherParty.number).toBe('+33999');
    await t.db.delete(recordings).where(eq(recordings.id, extra));
    expect(idsOf(await listOf('?fromDate=2026-11-01T00:00:00Z'))).toEqual([ids.d, ids.c, ids.b, ids.a]);
  });

  it('doc 2, Recording: the answer’s fields (duration in seconds, recordedParty with name and number)', async () => {
    const body = await listOf(`?phoneNumberId=${carolId}&toDate=2026-11-02T00:00:00Z`);
    expect(body.data[0]).toMatchObject({
      id: ids.a,
      mime: 'audio/wav',
      duration: 10,
      direction: 'in',
      date: '2026-11-01T09:00:00.000Z',
      otherParty: { number: '+33612345678' },
      recordedParty: { phoneNumberId: carolId, name: 'Carol Petit', number: '211' },
    });
    expect(typeof body.data[0].fileName).toBe('string');
  });
});

describe('doc 2, get and download a recording', () => {
  it('doc 2, get a recording: {data: Recording}', async () => {
    const id = await insertRecording(pbx1, {
      date: '2026-11-18T08:00:00Z',
      phoneNumberId: bobSub,
      userId: bob.id,
      name: 'Bob Durand',
      number: '202',
      duration: 12.4,
    });
    const res = await req('GET', `${R1}/${id}`, ecAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id,
      duration: 12,
      recordedParty: { userId: bob.id, phoneNumberId: bobSub, name: 'Bob Durand', number: '202' },
    });
  });

  it('issue 26, point 5: the audio downloads with its Content-Type and Content-Length, and a Range is answered 206', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const id = await insertRecording(pbx1, { date: '2026-11-18T08:00:00Z', bytes });
    const whole = await req('GET', `${R1}/${id}/audio`, ecAdmin.token);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toMatch(/^audio\/wav/);
    expect(Number(whole.headers['content-length'])).toBe(1000);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await req('GET', `${R1}/${id}/audio`, ecAdmin.token, undefined, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    const beyond = await req('GET', `${R1}/${id}/audio`, ecAdmin.token, undefined, { range: 'bytes=5000-' });
    expect(beyond.statusCode).toBe(416);
  });
});

describe('doc 2, delete recordings', () => {
  it('doc 2, delete a recording: descriptor and audio both go', async () => {
    const id = await insertRecording(pbx1, { date: '2026-11-18T08:00:00Z' });
    const [row] = await t.db.select().from(recordings).where(eq(recordings.id, id));
    const res = await req('DELETE', `${R1}/${id}`, ecAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.db.select().from(recordings).where(eq(recordings.id, id))).toEqual([]);
    expect(await files().get(row.storageKey)).toBe(undefined);
    expect((await req('DELETE', `${R1}/${id}`, ecAdmin.token)).statusCode).toBe(404);
  });

  it('issue 26, point 5: delete several: recordIds comma-separated, all deleted with their audio', async () => {
    const a = await insertRecording(pbx1, { date: '2026-11-18T08:00:00Z' });
    const b = await insertRecording(pbx1, { date: '2026-11-18T08:00:00Z' });
    const keys = (await t.db.select().from(recordings).where(eq(recordings.cloudPbxId, pbx1.id)))
      .filter((r) => r.id === a || r.id === b)
      .map((r) => r.storageKey);
    const res = await req('DELETE', `${R1}?recordIds=${a},${b}`, ecAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.db.select().from(recordings)).filter((r) => r.id === a || r.id === b)).toEqual([]);
    for (const k of keys) expect(await files().get(k)).toBe(undefined);
  });

  it('issue 26, point 5: delete several is all or nothing: an unknown id (or one of another CloudPBX) is 404 and nothing is deleted', async () => {
    const a = await insertRecording(pbx1, { date: '2026-11-18T08:00:00Z' });
    const elsewhere = await insertRecording(pbx2, { date: '2026-11-18T08:00:00Z' });
    for (const ids of [`${a},nope`, `${a},${elsewhere}`]) {
      const res = await req('DELETE', `${R1}?recordIds=${ids}`, ecAdmin.token);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().errorDetailsCode).toBe(404870);
    }
    const [row] = await t.db.select().from(recordings).where(eq(recordings.id, a));
    expect(row?.id).toBe(a);
    expect((await files().get(row.storageKey))?.size).toBeGreaterThan(0);
    const empty = await req('DELETE', `${R1}?recordIds=,`, ecAdmin.token);
    expect(empty.statusCode).toBe(400);
  });
});

describe('doc 2, set recording announcement profile', () => {
  it('doc 2, set recording announcement profile: stored on the CloudPBX and told to its gateway', async () => {
    const res = await req('PUT', `${R1}/announcement-profile`, ecAdmin.token, { announcementProfile: 'external_only' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ announcementProfile: 'external_only' });
    const [row] = await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, pbx1.id));
    expect(row.announcementProfile).toBe('external_only');
    const sent = await t.db.select().from(outbox).where(eq(outbox.recipient, pbx1.jid_pbxpcg));
    expect(sent.some((s) => s.stanza.includes('<cloudpbx action="update"') && s.stanza.includes('external_only'))).toBe(
      true,
    );
  });

  it('doc 2, set recording announcement profile: the CloudPBX’s managers may; site_admin gets 403; another value is 400', async () => {
    expect(
      (await req('PUT', `${R1}/announcement-profile`, bpAdmin.token, { announcementProfile: 'all' })).statusCode,
    ).toBe(200);
    expect(
      (await req('PUT', `${R1}/announcement-profile`, siteAdmin.token, { announcementProfile: 'all' })).statusCode,
    ).toBe(403);
    expect(
      (await req('PUT', `${R1}/announcement-profile`, ecAdmin.token, { announcementProfile: 'sometimes' })).statusCode,
    ).toBe(400);
  });
});

// ---------------------------------------------------------------------------------------------
// Ingestion.

const BOUNDARY = 'recording-boundary-7f3a';

/** A multipart form: the descriptor field (unless null), then the audio file part (unless null). */
function form(descriptor: unknown, audio: Buffer | null, type = 'audio/wav'): Buffer {
  const parts: Buffer[] = [];
  if (descriptor !== null)
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="descriptor"\r\n\r\n${
          typeof descriptor === 'string' ? descriptor : JSON.stringify(descriptor)
        }\r\n`,
      ),
    );
  if (audio !== null)
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="audio"; filename="call.wav"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      audio,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

describe('issue 26, point 5: ingestion', () => {
  let ec: string;
  let pbx: Record<string, any>;
  let admin: MadeUser;
  let subs: Record<'all' | 'none' | 'external_only' | 'internal_only', string>;
  let users4: Record<string, string>;

  const ingest = (descriptor: unknown, audio: Buffer | null, token = t.superToken, type?: string) =>
    t.inject({
      method: 'POST',
      url: `${PBXS}/${pbx.id}/recordings`,
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: form(descriptor, audio, type),
    });
  const descriptor = (profile: keyof typeof subs, o: Record<string, unknown> = {}) => ({
    date: '2026-11-20T14:00:00Z',
    direction: 'in',
    otherParty: { number: '+33612345678' },
    recordedParty: { userId: users4[profile], phoneNumberId: subs[profile] },
    ...o,
  });
  const setCompany = (allow: boolean, inboundOnly: boolean) =>
    t.db
      .update(companies)
      .set({ allowCloudPbxRecording: allow, cloudPbxRecordingInboundOnly: inboundOnly })
      .where(eq(companies.id, ec));
  const countOf = async () => (await t.db.select().from(recordings).where(eq(recordings.cloudPbxId, pbx.id))).length;
  const storedFiles = async () => portsOf(t.deps).files.list(`pbx/${ec}/${pbx.id}/recordings`);

  beforeAll(async () => {
    ec = await makeCompany(t, { name: 'Rec ingestion EC' });
    admin = await makeUser(t, ec, ['company_admin']);
    pbx = await createPbx(t, ec);
    subs = {} as typeof subs;
    users4 = {};
    // Short numbers of the plan (prefix 2, 3 digits): 2221 to 2224.
    let n = 2221;
    for (const profile of ['all', 'none', 'external_only', 'internal_only'] as const) {
      const u = await makeUser(t, ec);
      await t.db.update(users).set({ firstName: 'Eve', lastName: profile }).where(eq(users.id, u.id));
      users4[profile] = u.id;
      subs[profile] = await seedSubscriber(t, pbx.id, u.id, String(n++));
      await t.db.update(subscribers).set({ recordingProfile: profile }).where(eq(subscribers.id, subs[profile]));
    }
  });

  it('issue 26, point 5: a call longer than the greetings’ 10 minutes is recorded (point 5 sets no length)', async () => {
    await setCompany(true, true);
    const res = await ingest(descriptor('all'), wav('ulaw', 12 * 60));
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.db.select().from(recordings).where(eq(recordings.id, res.json().data.id));
    expect(row.duration).toBe(720);
  });

  it('issue 26, point 5: ingestion stores the recording; its duration is measured from the audio (a duration in the descriptor is ignored); recordedParty.number is the subscriber’s short number', async () => {
    await setCompany(true, true);
    const res = await ingest(descriptor('all', { duration: 999 }), wav('pcm', 4.5));
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      mime: 'audio/wav',
      duration: 5,
      direction: 'in',
      date: '2026-11-20T14:00:00.000Z',
      otherParty: { number: '+33612345678' },
      recordedParty: { userId: users4.all, phoneNumberId: subs.all, name: 'Eve all', number: '2221', groupId: null },
    });
    const [row] = await t.db.select().from(recordings).where(eq(recordings.id, data.id));
    expect(row.duration).toBe(4.5);
    expect(row.storageKey).toBe(`pbx/${ec}/${pbx.id}/recordings/${data.id}`);
    const got = await req('GET', `${PBXS}/${pbx.id}/recordings/${data.id}/audio`, admin.token);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(wav('pcm', 4.5))).toBe(true);
    const mp = await ingest(descriptor('all'), mp3(3.2), t.superToken, 'application/octet-stream');
    expect(mp.statusCode, mp.body).toBe(201);
    expect(mp.json().data.mime).toBe('audio/mpeg');
  });

  it('issue 26, point 5: ingestion is 409 with nothing stored when the company has allowCloudPbxRecording false', async () => {
    await setCompany(false, false);
    const before = { rows: await countOf(), files: (await storedFiles()).length };
    const res = await ingest(descriptor('all'), wav('pcm', 5));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409870);
    expect({ rows: await countOf(), files: (await storedFiles()).length }).toEqual(before);
  });

  it('issue 26, point 5: ingestion is 409 with nothing stored when cloudPbxRecordingInboundOnly is true and the direction is not in', async () => {
    await setCompany(true, true);
    const before = { rows: await countOf(), files: (await storedFiles()).length };
    const res = await ingest(descriptor('all', { direction: 'out' }), wav('pcm', 5));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409872);
    expect({ rows: await countOf(), files: (await storedFiles()).length }).toEqual(before);
    await setCompany(true, false);
    expect((await ingest(descriptor('all', { direction: 'out' }), wav('pcm', 5))).statusCode).toBe(201);
  });

  it('issue 26, point 5: ingestion is 409 with nothing stored when the recorded subscriber’s profile excludes the call (none; external_only and an internal short number; internal_only and an external number)', async () => {
    await setCompany(true, false);
    const internal = { otherParty: { number: '2230' } };
    const external = { otherParty: { number: '+33612345678' } };
    for (const [profile, o] of [
      ['none', external],
      ['none', internal],
      ['external_only', internal],
      ['internal_only', external],
    ] as const) {
      const before = { rows: await countOf(), files: (await storedFiles()).length };
      const res = await ingest(descriptor(profile, o), wav('pcm', 5));
      expect(res.statusCode, `${profile} ${JSON.stringify(o)}: ${res.body}`).toBe(409);
      expect(res.json().errorDetailsCode).toBe(409871);
      expect({ rows: await countOf(), files: (await storedFiles()).length }).toEqual(before);
    }
    for (const [profile, o] of [
      ['external_only', external],
      ['internal_only', internal],
      ['all', internal],
    ] as const) {
      const res = await ingest(descriptor(profile, o), wav('pcm', 5));
      expect(res.statusCode, `${profile} ${JSON.stringify(o)}: ${res.body}`).toBe(201);
    }
  });

  it('issue 26, point 5: a descriptor missing or invalid, an unknown recorded party, no audio or audio that is not audio: 400, nothing stored', async () => {
    await setCompany(true, false);
    const before = { rows: await countOf(), files: (await storedFiles()).length };
    const cases: [unknown, Buffer | null, number][] = [
      [null, wav('pcm', 5), 400870],
      ['{not json', wav('pcm', 5), 400870],
      [descriptor('all', { direction: 'sideways' }), wav('pcm', 5), 400870],
      [descriptor('all', { date: 'yesterday' }), wav('pcm', 5), 400870],
      [descriptor('all', { recordedParty: { phoneNumberId: 'nobody' } }), wav('pcm', 5), 400871],
      [descriptor('all', { recordedParty: { phoneNumberId: subs.all, userId: users4.none } }), wav('pcm', 5), 400871],
      [descriptor('all', { recordedParty: { phoneNumberId: subs.all, groupId: 'no-group' } }), wav('pcm', 5), 400871],
      [descriptor('all'), null, 400011],
      [descriptor('all'), Buffer.from('this is not audio at all, only text'), 400861],
    ];
    for (const [d, audio, code] of cases) {
      const res = await ingest(d, audio);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDetailsCode, res.body).toBe(code);
    }
    expect({ rows: await countOf(), files: (await storedFiles()).length }).toEqual(before);
  });

  it('issue 26, point 5: ingestion stands for the voice platform: superadmin only (the company_admin gets 403)', async () => {
    await setCompany(true, false);
    const res = await ingest(descriptor('all'), wav('pcm', 5), admin.token);
    expect(res.statusCode).toBe(403);
  });
});
