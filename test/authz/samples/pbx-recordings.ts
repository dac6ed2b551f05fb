// Sample requests of the call recordings of a CloudPBX (issue 26, point 5), for the authorisation
// matrix (see ./types.ts). A recording target sits in a CloudPBX of its own (the matrix's
// producer); its path names that PBX, found in the database. The ingestion makes what a
// recording needs in the matrix's CloudPBX: a company that allows recording and a subscriber
// recording every call.
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { recordings } from '../../../src/modules/pbx/recordings.tables.ts';
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

/** An operation on one recording (under its CloudPBX). */
const onRecording = (suffix: string, fresh: boolean, method: 'GET' | 'DELETE' = 'GET'): Sample => ({
  type: 'target',
  kind: 'recording',
  fresh,
  request: async (id: string, ctx: Ctx): Promise<Req> => ({
    method,
    url: `${PBXS}/${await pbxOf(ctx, id)}/recordings/${id}${suffix}`,
  }),
});

export const pbxRecordingsSamples: Record<string, Sample> = {
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
