// Group voicemail greetings: routes.md, CloudPBX (createGroupGreeting ... updateGroupGreetingAudio);
// document 2, "Group voicemail greetings"; issue 26, points 4 and 8. Groups are inserted directly
// (their operations are another part of issue 26).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { groupGreetings } from '../../src/modules/pbx/greetings.tables.ts';
import { groups } from '../../src/modules/pbx/groups.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { createPbx, PBXS } from './fixtures.ts';
import { mp3, wav } from './audio-fixtures.ts';

let t: TestApp;
let dataDir: string;
let ec1: string;
let siteAdmin: MadeUser;
let otherAdmin: MadeUser;
let ecAdmin: MadeUser;
let pbx: Record<string, any>;
let pbx2: Record<string, any>;
let n = 600;

const files = () => portsOf(t.deps).files;

async function insertGroup(type: 'hunting_group' | 'manager_assistant', cloudPbxId = pbx.id): Promise<string> {
  const id = newId();
  n++;
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

const GG = (groupId: string, cloudPbxId = pbx.id) => `${PBXS}/${cloudPbxId}/groups/${groupId}/greetings`;
const send = (method: 'POST' | 'PUT', url: string, body: Buffer, token = t.superToken, type = 'audio/wav') =>
  t.inject({ method, url, headers: { ...bearer(token), 'content-type': type }, payload: body });
const req = (method: 'GET' | 'DELETE', url: string, token = t.superToken, headers: Record<string, string> = {}) =>
  t.inject({ method, url, headers: { ...bearer(token), ...headers } });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'group-greetings-test-'));
  t = await createTestApp({ config: { dataDir } });
  ec1 = await makeCompany(t, { name: 'GG EC' });
  const ec2 = await makeCompany(t, { name: 'GG other EC' });
  const site1 = await makeSite(t, ec1);
  ecAdmin = await makeUser(t, ec1, ['company_admin']);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1 });
  otherAdmin = await makeUser(t, ec2, ['company_admin']);
  pbx = await createPbx(t, ec1, { siteId: site1 });
  pbx2 = await createPbx(t, ec2);
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('issue 26, point 4: group voicemail greetings', () => {
  it('issue 26, point 4: POST ?type=busy|unavailable with raw audio answers {id, type}; the list gives them; a second of a type is 409', async () => {
    const g = await insertGroup('hunting_group');
    let res = await send('POST', `${GG(g)}?type=busy`, wav('pcm', 1.5), ecAdmin.token);
    expect(res.statusCode, res.body).toBe(201);
    const busy = res.json().data;
    expect(busy).toEqual({ id: busy.id, type: 'busy' });
    res = await send('POST', `${GG(g)}?type=unavailable`, mp3(1));
    expect(res.statusCode, res.body).toBe(201);
    const unavailable = res.json().data;
    res = await req('GET', GG(g));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([busy, unavailable]);
    const before = await files().list('pbx/');
    res = await send('POST', `${GG(g)}?type=busy`, wav('pcm', 1));
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409862);
    expect(await files().list('pbx/')).toEqual(before);
    // The type is required and one of the two.
    expect((await send('POST', `${GG(g)}?type=other`, wav('pcm', 1))).statusCode).toBe(400);
    expect((await send('POST', GG(g), wav('pcm', 1))).statusCode).toBe(400);
  });

  it('issue 26, point 4: on hunting groups only (a manager-assistant group is 409); a group of another CloudPBX is 404', async () => {
    const ma = await insertGroup('manager_assistant');
    let res = await send('POST', `${GG(ma)}?type=busy`, wav('pcm', 1));
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409863);
    expect((await req('GET', GG(ma))).statusCode).toBe(409);
    const other = await insertGroup('hunting_group', pbx2.id);
    res = await send('POST', `${GG(other)}?type=busy`, wav('pcm', 1));
    expect(res.statusCode).toBe(404);
    expect((await req('GET', GG('nope'))).statusCode).toBe(404);
  });

  it('issue 26, point 4: GET .../{greetingId}/audio streams the audio with its type and length, ranges 206', async () => {
    const g = await insertGroup('hunting_group');
    const body = wav('ulaw', 2);
    const { id } = (await send('POST', `${GG(g)}?type=unavailable`, body)).json().data;
    let res = await req('GET', `${GG(g)}/${id}/audio`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^audio\/wav/);
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.rawPayload.equals(body)).toBe(true);
    res = await req('GET', `${GG(g)}/${id}/audio`, t.superToken, { range: 'bytes=0-43' });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload.equals(body.subarray(0, 44))).toBe(true);
    expect((await req('GET', `${GG(g)}/nope/audio`)).statusCode).toBe(404);
  });

  it('issue 26, point 4: PUT .../{greetingId}/audio replaces the audio (the old file removed after the row changed)', async () => {
    const g = await insertGroup('hunting_group');
    const { id } = (await send('POST', `${GG(g)}?type=busy`, wav('pcm', 1))).json().data;
    const [before] = await t.db.select().from(groupGreetings).where(eq(groupGreetings.id, id));
    const body = mp3(2);
    let res = await send('PUT', `${GG(g)}/${id}/audio`, body, ecAdmin.token, 'audio/mpeg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toMatch(/replaced/);
    const [after] = await t.db.select().from(groupGreetings).where(eq(groupGreetings.id, id));
    expect(after).toMatchObject({ mediaType: 'audio/mpeg', size: body.length });
    expect(after.duration).toBeGreaterThan(1.9);
    expect(after.storageKey).not.toBe(before.storageKey);
    expect(await files().size(before.storageKey)).toBe(undefined);
    res = await req('GET', `${GG(g)}/${id}/audio`);
    expect(res.headers['content-type']).toMatch(/^audio\/mpeg/);
    expect(res.rawPayload.equals(body)).toBe(true);
    // The same audio rules: refused, and the stored audio stays as it was.
    res = await send('PUT', `${GG(g)}/${id}/audio`, Buffer.from('no audio here'));
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400861);
    expect(await files().size(after.storageKey)).toBe(body.length);
    expect((await send('PUT', `${GG(g)}/nope/audio`, wav('pcm', 1))).statusCode).toBe(404);
  });

  it('issue 26, point 4: the same audio rules on create (not audio, truncated, too long: 400; over 10 MB: 413), nothing stored', async () => {
    const g = await insertGroup('hunting_group');
    const before = await files().list('pbx/');
    for (const [body, status] of [
      [Buffer.from('text'), 400],
      [wav('pcm', 3).subarray(0, 9000), 400],
      [wav('alaw', 605), 400],
      [Buffer.concat([wav('pcm', 1), Buffer.alloc(10 * 1024 * 1024)]), 413],
      [Buffer.alloc(0), 400],
    ] as const) {
      const res = await send('POST', `${GG(g)}?type=busy`, body);
      expect(res.statusCode, res.body).toBe(status);
    }
    expect(await files().list('pbx/')).toEqual(before);
    expect(await t.db.select().from(groupGreetings).where(eq(groupGreetings.groupId, g))).toEqual([]);
  });

  it('issue 26, point 4 and 8: DELETE removes the greeting, its row then its audio; the gateway is told', async () => {
    const g = await insertGroup('hunting_group');
    const { id } = (await send('POST', `${GG(g)}?type=busy`, wav('pcm', 1))).json().data;
    const [row] = await t.db.select().from(groupGreetings).where(eq(groupGreetings.id, id));
    expect(row.storageKey).toBe(`pbx/${ec1}/${pbx.id}/group-greetings/${id}`);
    const res = await req('DELETE', `${GG(g)}/${id}`, ecAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await files().size(row.storageKey)).toBe(undefined);
    expect((await req('GET', GG(g))).json().data).toEqual([]);
    expect((await req('DELETE', `${GG(g)}/${id}`)).statusCode).toBe(404);
    const stanzas = (await t.db.select().from(outbox)).map((r) => r.stanza).filter((s) => s.includes(id));
    expect(stanzas.some((s) => s.includes('action="create"'))).toBe(true);
    expect(stanzas.some((s) => s.includes('action="delete"'))).toBe(true);
  });

  it('doc 2, group voicemail greetings: site_admin reads but may not write (403); another company’s admin 404', async () => {
    const g = await insertGroup('hunting_group');
    const { id } = (await send('POST', `${GG(g)}?type=busy`, wav('pcm', 1))).json().data;
    expect((await req('GET', GG(g), siteAdmin.token)).statusCode).toBe(200);
    expect((await req('GET', `${GG(g)}/${id}/audio`, siteAdmin.token)).statusCode).toBe(200);
    expect((await send('POST', `${GG(g)}?type=unavailable`, wav('pcm', 1), siteAdmin.token)).statusCode).toBe(403);
    expect((await req('DELETE', `${GG(g)}/${id}`, siteAdmin.token)).statusCode).toBe(403);
    expect((await req('GET', GG(g), otherAdmin.token)).statusCode).toBe(404);
  });
});
