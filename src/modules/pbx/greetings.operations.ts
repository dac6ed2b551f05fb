// Operations on the greetings of a CloudPBX and its hunting groups' voicemail greetings (routes.md,
// CloudPBX: listGreetings ... uploadGreeting, createGroupGreeting ... updateGroupGreetingAudio;
// document 2, Greeting and Greetings; issue 26, points 3, 4, 8 and 9). C =
// /vcpprovisioning/v1.0/cloudpbxs/{systemId}.
//
// The greetings' operations target the CloudPBX of the path, not the `greeting` kind: a fileId may
// name a default file, which is the service's own and no row (docs/decisions.md, Greetings), and a
// stored file of another CloudPBX is 404 from the service. Group voicemail greetings target the
// group under its CloudPBX. Uploads are raw audio streamed to storage (AUDIO_UPLOAD), judged from
// their content in `prepare` (before the row's transaction), and committed in `command`.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { Binary } from '../../http/binary.ts';
import { AUDIO_ERRORS, AUDIO_UPLOAD } from './audio.ts';
import { pbxTarget, underPbx } from './pbx.targets.ts';
import {
  CreateGroupGreetingQuery,
  FileIdParams,
  Greeting,
  GreetingIdParams,
  UploadGreetingParams,
  GreetingList,
  GroupGreeting,
  GroupGreetingParams,
  GroupParams,
  ScopeQuery,
  UploadGreetingQuery,
} from './greetings.schemas.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import * as service from './greetings.service.ts';

const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';
const GREETINGS = `${C}/greetings`;
const GROUP_GREETINGS = `${C}/groups/:groupId/greetings`;
const tag = 'CloudPBX greetings';
const onPbx = pbxTarget;
const onGroup = underPbx('group', 'groupId');
const Empty = Type.Array(Type.Never());
const SCOPE_ERRORS = ['GREETING_SCOPE_AMBIGUOUS', 'GREETING_SCOPE_UNKNOWN'] as const;
const AudioFile = Binary({
  types: ['audio/wav', 'audio/mpeg'],
  description: 'the audio, streamed; a Range header is answered 206 with that byte range',
  ranges: true,
});
const scopeWords =
  'The scope is named by the query: none for the company announcements, groupId (a hunting group), ivrId (a ' +
  'welcome service), autoAttendantMenuId (the menu of an auto attendant: a welcome service), attendant=true ' +
  '(the console attendant); at most one (400867), of this CloudPBX (400868).';
const audioWords =
  'The body is the raw audio (any of the declared types: the content decides): WAV in PCM, A-law or µ-law, ' +
  'or MP3; at most 10 MB (413) and 10 minutes (400865); empty (400860), not audio (400861), another codec ' +
  '(400862), truncated (400863) or without samples (400864) is refused and nothing is stored. The body is ' +
  'streamed to storage, never held whole in memory.';

export const listGreetings = defineOperation({
  operationId: 'listGreetings',
  method: 'GET',
  path: GREETINGS,
  tag,
  summary: 'List the greetings of a scope, each greetingId with its default and stored files',
  description: `${scopeWords} Each greetingId of the scope comes with its default file of the CloudPBX’s language (active when no stored file is) and its stored files.`,
  params: SystemIdParams,
  query: ScopeQuery,
  response: GreetingList,
  envelope: 'data',
  target: onPbx,
  errors: SCOPE_ERRORS,
  command: (cmd, { query }) => service.listGreetings(cmd.db, cmd.target, query),
});

export const resetGreetings = defineOperation({
  operationId: 'resetGreetings',
  method: 'DELETE',
  path: GREETINGS,
  tag,
  summary: 'Restore every greeting of a scope to its default and delete the scope’s stored files',
  description: scopeWords,
  params: SystemIdParams,
  query: ScopeQuery,
  response: Empty,
  envelope: 'status',
  target: onPbx,
  errors: SCOPE_ERRORS,
  command: async (cmd, { query }) => {
    const n = await service.resetGreetings(cmd.db, cmd.deps.ports.files, cmd.target, query);
    return { status: `greetings restored to their defaults, ${n} stored file(s) deleted`, data: [] };
  },
});

export const getGreeting = defineOperation({
  operationId: 'getGreeting',
  method: 'GET',
  path: `${GREETINGS}/:fileId`,
  tag,
  summary: 'Get a greeting file',
  description: `A stored file of this CloudPBX, or a default file (default_<greetingId>_<language>) of the scope the query names. ${scopeWords}`,
  params: FileIdParams,
  query: ScopeQuery,
  response: Greeting,
  envelope: 'data',
  target: onPbx,
  errors: SCOPE_ERRORS,
  command: (cmd, { params, query }) => service.getGreeting(cmd.db, cmd.target, params.fileId, query),
});

export const getGreetingAudio = defineOperation({
  operationId: 'getGreetingAudio',
  method: 'GET',
  path: `${GREETINGS}/:fileId/audio`,
  tag,
  summary: 'Download the audio of a greeting file (byte ranges answered 206)',
  description: `Content-Type and Content-Length of the file; the audio is streamed from storage. ${scopeWords}`,
  params: FileIdParams,
  query: ScopeQuery,
  response: AudioFile,
  envelope: 'binary',
  target: onPbx,
  errors: SCOPE_ERRORS,
  command: (cmd, { params, query }) =>
    service.greetingAudio(cmd.db, cmd.deps.ports.files, cmd.target, params.fileId, query),
});

export const deleteGreeting = defineOperation({
  operationId: 'deleteGreeting',
  method: 'DELETE',
  path: `${GREETINGS}/:fileId`,
  tag,
  summary: 'Delete a stored greeting file that is neither active nor a default (409860 otherwise)',
  params: FileIdParams,
  query: ScopeQuery,
  response: Empty,
  envelope: 'status',
  target: onPbx,
  errors: ['GREETING_NOT_DELETABLE', ...SCOPE_ERRORS],
  command: async (cmd, { params, query }) => {
    await service.deleteGreeting(cmd.db, cmd.deps.ports.files, cmd.target, params.fileId, query);
    return { status: `greeting file ${params.fileId} deleted`, data: [] };
  },
});

export const activateGreeting = defineOperation({
  operationId: 'activateGreeting',
  method: 'POST',
  path: `${GREETINGS}/:fileId/activate`,
  tag,
  summary: 'Make a greeting file the active one of its greetingId',
  description:
    'A stored file (the previously active one stays stored, inactive), or the default of the CloudPBX’s language ' +
    `of the scope the query names (a default of another language: 409861). ${scopeWords}`,
  params: FileIdParams,
  query: ScopeQuery,
  response: Greeting,
  envelope: 'status',
  successStatus: 200,
  target: onPbx,
  errors: ['GREETING_DEFAULT_OTHER_LANGUAGE', ...SCOPE_ERRORS],
  command: async (cmd, { params, query }) => ({
    status: 'greeting activated',
    data: await service.activateGreeting(cmd.db, cmd.target, params.fileId, query),
  }),
});

export const restoreGreeting = defineOperation({
  operationId: 'restoreGreeting',
  method: 'POST',
  path: `${GREETINGS}/:greetingId/restore`,
  tag,
  summary: 'Restore the default audio of a greetingId (the default of the CloudPBX’s language becomes active)',
  description: `The stored files stay stored, inactive. A greetingId not of the scope is 400866. ${scopeWords}`,
  params: GreetingIdParams,
  query: ScopeQuery,
  response: Greeting,
  envelope: 'status',
  successStatus: 200,
  target: onPbx,
  errors: ['GREETING_ID_NOT_IN_SCOPE', ...SCOPE_ERRORS],
  command: async (cmd, { params, query }) => ({
    status: 'greeting restored to its default',
    data: await service.restoreGreeting(cmd.db, cmd.target, params.greetingId, query),
  }),
});

export const uploadGreeting = defineOperation({
  operationId: 'uploadGreeting',
  method: 'PUT',
  // The route table's `C/greetings/{greetingId}`, whose position is `{fileId}` on get and delete:
  // OpenAPI allows one name per path position, so the path names it `fileId` (the URL is the same).
  path: `${GREETINGS}/:fileId`,
  tag,
  summary: 'Upload a greeting file: it becomes the active one, the one it replaces stays stored, inactive',
  description:
    `The path's last segment is the greetingId (the route table's C/greetings/{greetingId}; named fileId in ` +
    `this document, which allows one name per position). ${audioWords} A greetingId not of the scope is 400866. ` +
    `${scopeWords} size and duration are measured from the audio.`,
  params: UploadGreetingParams,
  query: UploadGreetingQuery,
  media: { json: false, raw: [AUDIO_UPLOAD] },
  response: Greeting,
  envelope: 'status',
  successStatus: 200,
  target: onPbx,
  errors: ['GREETING_ID_NOT_IN_SCOPE', ...SCOPE_ERRORS, ...AUDIO_ERRORS],
  // Issue 26, point 8: the audio is stored (and judged) before the row's transaction opens.
  prepare: (cmd, { params, query, upload }) =>
    service.storeGreetingUpload(cmd.db, cmd.deps.ports.files, cmd.target.id, params.fileId, query, upload),
  command: async (cmd, { query, prepared }) => ({
    status: 'greeting uploaded',
    data: await service.commitGreetingUpload(cmd.db, cmd.deps.ports.files, prepared, query.fileName),
  }),
});

// --- Group voicemail greetings (issue 26, point 4).

export const createGroupGreeting = defineOperation({
  operationId: 'createGroupGreeting',
  method: 'POST',
  path: GROUP_GREETINGS,
  tag,
  summary: 'Create a voicemail greeting of a hunting group (one per type: busy, unavailable)',
  description: `${audioWords} A second greeting of a type is 409862; a manager-assistant group 409863.`,
  params: GroupParams,
  query: CreateGroupGreetingQuery,
  media: { json: false, raw: [AUDIO_UPLOAD] },
  response: GroupGreeting,
  envelope: 'data',
  successStatus: 201,
  target: onGroup,
  errors: ['GROUP_GREETING_EXISTS', 'GROUP_GREETING_NOT_HUNTING', ...AUDIO_ERRORS],
  prepare: (cmd, { query, upload }) =>
    service.storeGroupGreetingUpload(
      cmd.db,
      cmd.deps.ports.files,
      cmd.target,
      () => service.checkNoGroupGreeting(cmd.db, cmd.target.id, query.type),
      upload,
    ),
  command: (cmd, { query, prepared }) =>
    service.createGroupGreeting(cmd.db, cmd.deps.ports.files, cmd.target, query.type, prepared),
});

export const listGroupGreetings = defineOperation({
  operationId: 'listGroupGreetings',
  method: 'GET',
  path: GROUP_GREETINGS,
  tag,
  summary: 'List the voicemail greetings of a hunting group',
  params: GroupParams,
  response: Type.Array(GroupGreeting),
  envelope: 'data',
  target: onGroup,
  errors: ['GROUP_GREETING_NOT_HUNTING'],
  command: (cmd) => service.listGroupGreetings(cmd.db, cmd.target),
});

export const deleteGroupGreeting = defineOperation({
  operationId: 'deleteGroupGreeting',
  method: 'DELETE',
  path: `${GROUP_GREETINGS}/:greetingId`,
  tag,
  summary: 'Delete a voicemail greeting of a hunting group (its audio after its row)',
  params: GroupGreetingParams,
  response: Empty,
  envelope: 'status',
  target: onGroup,
  errors: ['GROUP_GREETING_NOT_HUNTING'],
  command: async (cmd, { params }) => {
    await service.deleteGroupGreeting(cmd.db, cmd.deps.ports.files, cmd.target, params.greetingId);
    return { status: `group greeting ${params.greetingId} deleted`, data: [] };
  },
});

export const getGroupGreetingAudio = defineOperation({
  operationId: 'getGroupGreetingAudio',
  method: 'GET',
  path: `${GROUP_GREETINGS}/:greetingId/audio`,
  tag,
  summary: 'Download the audio of a voicemail greeting of a hunting group (byte ranges answered 206)',
  params: GroupGreetingParams,
  response: AudioFile,
  envelope: 'binary',
  target: onGroup,
  errors: ['GROUP_GREETING_NOT_HUNTING'],
  command: (cmd, { params }) => service.groupGreetingAudio(cmd.db, cmd.deps.ports.files, cmd.target, params.greetingId),
});

export const updateGroupGreetingAudio = defineOperation({
  operationId: 'updateGroupGreetingAudio',
  method: 'PUT',
  path: `${GROUP_GREETINGS}/:greetingId/audio`,
  tag,
  summary: 'Replace the audio of a voicemail greeting of a hunting group',
  description: `${audioWords} The previous audio is removed once the new one is recorded.`,
  params: GroupGreetingParams,
  media: { json: false, raw: [AUDIO_UPLOAD] },
  response: Empty,
  envelope: 'status',
  successStatus: 200,
  target: onGroup,
  errors: ['GROUP_GREETING_NOT_HUNTING', ...AUDIO_ERRORS],
  prepare: (cmd, { params, upload }) =>
    service.storeGroupGreetingUpload(
      cmd.db,
      cmd.deps.ports.files,
      cmd.target,
      () => service.checkGroupGreetingExists(cmd.db, cmd.target.id, params.greetingId),
      upload,
    ),
  command: async (cmd, { params, prepared }) => {
    await service.replaceGroupGreetingAudio(cmd.db, cmd.deps.ports.files, cmd.target, params.greetingId, prepared);
    return { status: `group greeting ${params.greetingId} audio replaced`, data: [] };
  },
});

export const greetingOperations: AnyOperation[] = [
  listGreetings,
  resetGreetings,
  getGreeting,
  getGreetingAudio,
  deleteGreeting,
  activateGreeting,
  restoreGreeting,
  uploadGreeting,
  createGroupGreeting,
  listGroupGreetings,
  deleteGroupGreeting,
  getGroupGreetingAudio,
  updateGroupGreetingAudio,
];
