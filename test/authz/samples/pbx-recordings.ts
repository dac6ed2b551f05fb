// Sample requests of the call recordings of a CloudPBX (issue 26, point 5), for the authorisation
// matrix (see ./types.ts). A recording target sits in a CloudPBX of its own (the matrix's
// producer); its path names that PBX, found in the database. The ingestion makes what a
// recording needs in the matrix's CloudPBX: a company that allows recording and a subscriber
// recording every call.
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { recordings } from '../../../src/modules/pbx/recordings.tables.ts';
import { subscribers } from '../../../src/modules/pbx/subscribers.tables.ts';
import { cloudPbxs } from '../../../src/modules/pbx/pbx.tables.ts';
import { systems } from '../../../src/modules/systems/systems.tables.ts';
import { companies } from '../../../src/modules/admin/companies/companies.tables.ts';
import { portsOf } from '../../../src/ports/ports.ts';
import { makeUser } from '../../support/factories.ts';
import { wav } from '../../pbx/audio-fixtures.ts';
import type { Ctx, Req, Sample } from './types.ts';

const V = '/api/svc/vcpprovisioning/v1.0';
const PBXS = `${V}/cloudpbxs`;

async function pbxOf(ctx: Ctx, recordId: string): Promise<string> {
  const [r] = await ctx.t.db
    .select({ cloudPbxId: recordings.cloudPbxId })
    .from(recordings)
    .where(eq(recordings.id, recordId));
  return r?.cloudPbxId ?? 'none';
}

const BOUNDARY = 'matrix-recording-boundary';

/** The ingestion's form: a descriptor recording the subscriber, then five seconds of WAV. */
function ingestionForm(userId: string, phoneNumberId: string): Buffer {
  const descriptor = {
    date: '2026-11-20T10:00:00Z',
    direction: 'in',
    otherParty: { number: '+33612345678' },
    recordedParty: { userId, phoneNumberId },
  };
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="descriptor"\r\n\r\n${JSON.stringify(descriptor)}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="audio"; filename="call.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    wav('pcm', 5),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** The recording's audio behind the files port (the matrix's producer stores none). */
async function withAudio(ctx: Ctx, recordId: string): Promise<void> {
  const [r] = await ctx.t.db.select().from(recordings).where(eq(recordings.id, recordId));
  if (r) await portsOf(ctx.t.deps).files.put(r.storageKey, wav('pcm', 1), 'audio/wav');
}

/** An operation on one recording (under its CloudPBX). */
const onRecording = (suffix: string, fresh: boolean, method: 'GET' | 'DELETE' = 'GET'): Sample => ({
  type: 'target',
  kind: 'recording',
  fresh,
  request: async (id: string, ctx: Ctx): Promise<Req> => {
    if (suffix === '/audio') await withAudio(ctx, id);
    return { method, url: `${PBXS}/${await pbxOf(ctx, id)}/recordings/${id}${suffix}` };
  },
});

export const pbxRecordingsSamples: Record<string, Sample> = {
  // The voice platform's ingestion: the CloudPBX's company allows recording (of every direction),
  // and a subscriber of it records every call.
  ingestRecording: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: async (id: string, ctx: Ctx): Promise<Req> => {
      const [system] = await ctx.t.db.select({ companyId: systems.companyId }).from(systems).where(eq(systems.id, id));
      const companyId = system?.companyId ?? 'none';
      await ctx.t.db
        .update(companies)
        .set({ allowCloudPbxRecording: true, cloudPbxRecordingInboundOnly: false })
        .where(eq(companies.id, companyId));
      await ctx.t.db
        .update(cloudPbxs)
        .set({ numberingPrefixes: ['2'], numberingDigits: 4 })
        .where(eq(cloudPbxs.id, id));
      const user = await makeUser(ctx.t, companyId);
      const phoneNumberId = newId();
      // A number of its own: the sample may be asked several times of one CloudPBX (isolation test).
      const n = 20000 + (ctx.n % 10000);
      await ctx.t.db.insert(subscribers).values({
        id: phoneNumberId,
        cloudPbxId: id,
        userId: user.id,
        shortNumber: String(n),
        shortNumberValue: n,
        vcpSubscriberId: `vcp-${phoneNumberId}`,
        recordingProfile: 'all',
      });
      return {
        method: 'POST',
        url: `${PBXS}/${id}/recordings`,
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: ingestionForm(user.id, phoneNumberId),
      };
    },
  },
  listRecordings: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id: string) => ({
      method: 'GET',
      url: `${PBXS}/${id}/recordings?fromDate=2026-01-01T00:00:00Z&otherNumber=33`,
    }),
  },
  getRecording: onRecording('', false),
  getRecordingAudio: onRecording('/audio', false),
  deleteRecording: onRecording('', true, 'DELETE'),
  deleteRecordings: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: async (id: string, ctx: Ctx): Promise<Req> => {
      const recordId = newId();
      await ctx.t.db.insert(recordings).values({
        id: recordId,
        cloudPbxId: id,
        date: new Date(),
        direction: 'in',
        otherNumber: '+33100000000',
        storageKey: `matrix/${recordId}.wav`,
        mediaType: 'audio/wav',
        size: 0,
        duration: 0,
      });
      return { method: 'DELETE', url: `${PBXS}/${id}/recordings?recordIds=${recordId}` };
    },
  },
  setRecordingAnnouncementProfile: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    defaultBody: { announcementProfile: 'all' },
    request: (id: string) => ({
      method: 'PUT',
      url: `${PBXS}/${id}/recordings/announcement-profile`,
      payload: { announcementProfile: 'all' },
    }),
  },
  runRecordingRetention: {
    type: 'targetless',
    request: () => ({ method: 'POST', url: `${V}/recordings/retention-runs` }),
  },
};
