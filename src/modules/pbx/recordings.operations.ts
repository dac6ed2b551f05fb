// Operations on the call recordings of a CloudPBX (routes.md, CloudPBX: ingestRecording,
// listRecordings, getRecording, getRecordingAudio, deleteRecording, deleteRecordings,
// setRecordingAnnouncementProfile; document 2, Recording and Recordings; issue 26, point 5).
// C = /vcpprovisioning/v1.0/cloudpbxs/{systemId}. The collection targets the CloudPBX of the
// path, one recording the recording under it (a recording of another CloudPBX: 404). The
// retention run (V/recordings/retention-runs) targets nothing: superadmin.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { childRoutes } from '../../http/child-routes.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import { Binary } from '../../http/binary.ts';
import { AUDIO_TYPES } from '../../http/media.ts';
import { newId } from '../../shared/ids.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import {
  AnnouncementProfileBody,
  DeleteRecordingsQuery,
  ListRecordingsQuery,
  RECORDING_SORT_FIELDS,
  RecordIdParams,
  RecordingItem,
  RetentionRun,
} from './recordings.schemas.ts';
import * as service from './recordings.service.ts';
import * as repo from './recordings.repo.ts';
import * as audio from './recordings.audio.ts';
import { AUDIO_ERRORS } from './audio.ts';

const tag = 'CloudPBX recordings';
const V = '/vcpprovisioning/v1.0';
const C = `${V}/cloudpbxs/:systemId`;
const Empty = Type.Array(Type.Never());

const family = childRoutes({
  kind: 'recording',
  parent: { kind: 'cloudpbx', field: 'systemId' },
  above: {},
  path: `${C}/recordings`,
  idParam: 'recordId',
  tag,
  parentParams: SystemIdParams,
  params: RecordIdParams,
  item: RecordingItem,
});

const CONSULT =
  'Only the company_admin of the CloudPBX’s company consults recordings (document 2, Recordings); every other ' +
  'role, superadmin and bp_admin included, gets 403 (404 when it cannot see the CloudPBX).';

export const ingestRecording = defineOperation({
  ...family.create,
  operationId: 'ingestRecording',
  summary: 'Store a call recording (the voice platform, as superadmin): a descriptor and its audio',
  description:
    'multipart/form-data: a `descriptor` field (JSON: date, direction in|out, otherParty {number}, recordedParty ' +
    '{userId or groupId, phoneNumberId}), sent before the `audio` file part. Refused with 409 and nothing stored ' +
    'when the company has allowCloudPbxRecording false (409870), when its cloudPbxRecordingInboundOnly is true and ' +
    'the direction is not `in` (409872), or when the recorded subscriber’s recording profile excludes the call ' +
    '(409871: `none`; `external_only` for a call with an internal short number; `internal_only` for an external ' +
    'one). The duration is measured from the audio (one in the descriptor is ignored); recordedParty.number is the ' +
    'subscriber’s short number.',
  media: { json: false, multipart: audio.RECORDING_MULTIPART },
  errors: [
    'RECORDING_DESCRIPTOR_INVALID',
    'RECORDING_PARTY_UNKNOWN',
    'RECORDING_NOT_ALLOWED',
    'RECORDING_INBOUND_ONLY',
    'RECORDING_PROFILE_EXCLUDES',
    ...AUDIO_ERRORS,
  ],
  // The rules first (nothing is stored when they refuse), then the audio, stored and measured
  // before the row's transaction opens; the row names it once it commits.
  prepare: async (cmd, { upload }) => {
    const descriptor = service.parseDescriptor(upload?.fields.descriptor);
    const accepted = await service.acceptRecording(cmd.db, cmd.target, descriptor, newId());
    const stored = await audio.storeRecordingAudio(cmd.deps.ports.files, accepted.storageKey, upload);
    return { accepted, stored };
  },
  command: async (cmd, { prepared }) => {
    try {
      return await service.insertRecording(cmd.db, cmd.target, prepared.accepted, prepared.stored);
    } catch (err) {
      await service.removeAudio(cmd.deps.ports.files, [prepared.accepted.storageKey], cmd.log);
      throw err;
    }
  },
});

export const listRecordings = defineOperation({
  ...family.list,
  operationId: 'listRecordings',
  summary: 'List the recordings of a CloudPBX (newest first unless sortField/sortOrder say otherwise)',
  description:
    `${CONSULT} Filters: phoneNumberId (the recorded subscriber), fromDate and toDate (inclusive), recordedName, ` +
    'recordedNumber and otherNumber (substrings, case-insensitive).',
  query: ListRecordingsQuery,
  listVersion: 'recordings',
  command: async (cmd, { query }) => {
    // Document 2: sortOrder default -1 (the paging's own default is 1).
    const paging = parsePaging({ ...query, sortOrder: query.sortOrder ?? -1 }, RECORDING_SORT_FIELDS, 'date');
    const { rows, total } = await repo.listRecordingRows(
      cmd.deps.database,
      cmd.target.id,
      query,
      paging,
      cmd.listVersion,
    );
    return listResult(rows.map(service.toApiRecording), total, paging);
  },
});

export const getRecording = defineOperation({
  ...family.get,
  operationId: 'getRecording',
  summary: 'Get a recording of a CloudPBX',
  description: CONSULT,
  command: async (cmd) => service.toApiRecording(cmd.target),
});

export const getRecordingAudio = defineOperation({
  ...family.get,
  path: `${family.get.path}/audio`,
  operationId: 'getRecordingAudio',
  summary: 'Download the audio of a recording (byte ranges honoured: 206)',
  description: CONSULT,
  response: Binary({ types: AUDIO_TYPES, ranges: true, description: 'the recorded audio, as stored' }),
  envelope: 'binary',
  errors: ['RANGE_NOT_SATISFIABLE'],
  command: async (cmd) =>
    audio.recordingAudioAnswer(cmd.deps.ports.files, cmd.target, service.toApiRecording(cmd.target).fileName),
});

export const deleteRecording = defineOperation({
  ...family.delete,
  operationId: 'deleteRecording',
  summary: 'Delete a recording: its descriptor, then its audio',
  description: CONSULT,
  response: Empty,
  command: async (cmd) => {
    await service.deleteRecording(cmd.db, cmd.deps.ports.files, cmd.parents.cloudpbx, cmd.target.id, cmd.log);
    return { status: `Recording ${cmd.target.id} deleted`, data: [] };
  },
});

export const deleteRecordings = defineOperation({
  ...family.list,
  method: 'DELETE',
  envelope: 'status',
  operationId: 'deleteRecordings',
  summary: 'Delete several recordings of a CloudPBX: all or nothing',
  description: `${CONSULT} recordIds: comma-separated; when one is not a recording of this CloudPBX, none is deleted (404870 naming them).`,
  query: DeleteRecordingsQuery,
  response: Empty,
  errors: ['RECORDING_IDS_REQUIRED', 'RECORDINGS_NOT_FOUND'],
  command: async (cmd, { query }) => {
    const n = await service.deleteRecordings(cmd.db, cmd.deps.ports.files, cmd.target, query.recordIds, cmd.log);
    return { status: `${n} recording(s) deleted`, data: [] };
  },
});

export const setRecordingAnnouncementProfile = defineOperation({
  ...family.list,
  method: 'PUT',
  path: `${C}/recordings/announcement-profile`,
  envelope: 'status',
  operationId: 'setRecordingAnnouncementProfile',
  summary: 'Set which calls of the CloudPBX announce their recording (all, external_only, internal_only, none)',
  description: 'The CloudPBX’s gateway is told (outbox). Who may: the managers of the CloudPBX.',
  body: AnnouncementProfileBody,
  response: AnnouncementProfileBody,
  command: async (cmd, { body }) => ({
    status: 'Recording announcement profile updated',
    data: await service.setAnnouncementProfile(cmd.db, cmd.target, body.announcementProfile),
  }),
});

export const runRecordingRetention = defineOperation({
  operationId: 'runRecordingRetention',
  method: 'POST',
  path: `${V}/recordings/retention-runs`,
  tag,
  summary: 'Apply the retention of recordings now (superadmin); the hourly schedule does it otherwise',
  description:
    'Deletes (row, then audio) every recording older than two months from its date and every one shorter than ' +
    '3 seconds (document 2, recording rules); answers how many were checked and deleted.',
  response: RetentionRun,
  envelope: 'data',
  successStatus: 200,
  scope: 'caller',
  idempotent: false,
  command: (cmd) => service.runRetention({ db: cmd.db, files: cmd.deps.ports.files, now: () => cmd.now, log: cmd.log }),
});

export const recordingOperations: AnyOperation[] = [
  ingestRecording,
  listRecordings,
  setRecordingAnnouncementProfile,
  getRecording,
  getRecordingAudio,
  deleteRecording,
  deleteRecordings,
  runRecordingRetention,
];
