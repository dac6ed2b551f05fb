// Sample requests of the greetings of a CloudPBX and of its hunting groups' voicemail greetings
// (document 2, Greetings; issue 26, points 3 and 4), for the authorisation matrix (see ./types.ts).
// The greetings' operations target the CloudPBX; a stored file they act on is inserted for the
// case. Group voicemail greetings target the group (a hunting group, the matrix's producer); its
// path names the group's CloudPBX, found in the database.
import { and, eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { portsOf } from '../../../src/ports/ports.ts';
import { greetingFiles, groupGreetings } from '../../../src/modules/pbx/greetings.tables.ts';
import { groups } from '../../../src/modules/pbx/groups.tables.ts';
import { wav } from '../../pbx/audio-fixtures.ts';
import type { Ctx, Req, Sample } from './types.ts';

const PBXS = '/api/svc/vcpprovisioning/v1.0/cloudpbxs';
const greetingsOf = (systemId: string) => `${PBXS}/${systemId}/greetings`;
const AUDIO = wav('pcm', 1);
const rawAudio = { 'content-type': 'audio/wav' };

/** A stored, inactive company greeting file of the CloudPBX (its audio in the files port). */
async function storedFile(ctx: Ctx, cloudPbxId: string): Promise<string> {
  const id = newId();
  const storageKey = `matrix/greetings/${id}`;
  await portsOf(ctx.t.deps).files.put(storageKey, AUDIO, 'audio/wav');
  await ctx.t.db.insert(greetingFiles).values({
    id,
    cloudPbxId,
    scope: 'company',
    greetingId: 'music_on_hold',
    fileName: `matrix-${id}.wav`,
    isActive: false,
    storageKey,
    mediaType: 'audio/wav',
    size: AUDIO.length,
    duration: 1,
  });
  return id;
}

/** The CloudPBX of a group (the path names it). */
async function pbxOf(ctx: Ctx, groupId: string): Promise<string> {
  const [g] = await ctx.t.db.select({ cloudPbxId: groups.cloudPbxId }).from(groups).where(eq(groups.id, groupId));
  return g?.cloudPbxId ?? 'none';
}
const groupGreetingsOf = async (ctx: Ctx, groupId: string) =>
  `${PBXS}/${await pbxOf(ctx, groupId)}/groups/${groupId}/greetings`;

/** The busy voicemail greeting of the group (made when it has none), its audio in the files port. */
async function groupGreeting(ctx: Ctx, groupId: string): Promise<string> {
  const id = newId();
  const storageKey = `matrix/group-greetings/${id}`;
  await portsOf(ctx.t.deps).files.put(storageKey, AUDIO, 'audio/wav');
  await ctx.t.db
    .insert(groupGreetings)
    .values({ id, groupId, type: 'busy', storageKey, mediaType: 'audio/wav', size: AUDIO.length, duration: 1 })
    .onConflictDoNothing();
  const [g] = await ctx.t.db
    .select({ id: groupGreetings.id })
    .from(groupGreetings)
    .where(and(eq(groupGreetings.groupId, groupId), eq(groupGreetings.type, 'busy')));
  return g.id;
}

export const pbxGreetingsSamples: Record<string, Sample> = {
  listGreetings: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: greetingsOf(id) }),
  },
  resetGreetings: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id): Req => ({ method: 'DELETE', url: greetingsOf(id) }),
  },
  getGreeting: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${greetingsOf(id)}/default_music_on_hold_en` }),
  },
  getGreetingAudio: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: async (id, ctx): Promise<Req> => ({
      method: 'GET',
      url: `${greetingsOf(id)}/${await storedFile(ctx, id)}/audio`,
    }),
  },
  deleteGreeting: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'DELETE',
      url: `${greetingsOf(id)}/${await storedFile(ctx, id)}`,
    }),
  },
  activateGreeting: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'POST',
      url: `${greetingsOf(id)}/${await storedFile(ctx, id)}/activate`,
    }),
  },
  restoreGreeting: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id): Req => ({ method: 'POST', url: `${greetingsOf(id)}/music_on_hold/restore` }),
  },
  uploadGreeting: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id): Req => ({
      method: 'PUT',
      url: `${greetingsOf(id)}/music_on_hold?fileName=matrix.wav`,
      headers: rawAudio,
      payload: AUDIO,
    }),
  },
  createGroupGreeting: {
    type: 'target',
    kind: 'group',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'POST',
      url: `${await groupGreetingsOf(ctx, id)}?type=unavailable`,
      headers: rawAudio,
      payload: AUDIO,
    }),
  },
  listGroupGreetings: {
    type: 'target',
    kind: 'group',
    fresh: false,
    request: async (id, ctx): Promise<Req> => ({ method: 'GET', url: await groupGreetingsOf(ctx, id) }),
  },
  deleteGroupGreeting: {
    type: 'target',
    kind: 'group',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'DELETE',
      url: `${await groupGreetingsOf(ctx, id)}/${await groupGreeting(ctx, id)}`,
    }),
  },
  getGroupGreetingAudio: {
    type: 'target',
    kind: 'group',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'GET',
      url: `${await groupGreetingsOf(ctx, id)}/${await groupGreeting(ctx, id)}/audio`,
    }),
  },
  updateGroupGreetingAudio: {
    type: 'target',
    kind: 'group',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'PUT',
      url: `${await groupGreetingsOf(ctx, id)}/${await groupGreeting(ctx, id)}/audio`,
      headers: rawAudio,
      payload: AUDIO,
    }),
  },
};
