// Errors of the hosted PBX: (recordings, retention), n = 870-879 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const recordingErrors = {
  RECORDING_DESCRIPTOR_INVALID: {
    status: 400,
    code: 400870,
    message:
      'Bad Request: the descriptor part of the recording is missing or invalid (JSON: date, direction, otherParty {number}, recordedParty {userId or groupId, phoneNumberId})',
  },
  RECORDING_PARTY_UNKNOWN: {
    status: 400,
    code: 400871,
    message:
      'Bad Request: recordedParty names no subscriber (phoneNumberId), user or hunting group of this CloudPBX, or names ones that do not go together',
  },
  RECORDING_IDS_REQUIRED: {
    status: 400,
    code: 400872,
    message: 'Bad Request: recordIds must name at least one recording (comma-separated ids)',
  },
  RECORDINGS_NOT_FOUND: {
    status: 404,
    code: 404870,
    message: 'Not Found: some of recordIds are not recordings of this CloudPBX; none was deleted',
  },
  RECORDING_NOT_ALLOWED: {
    status: 409,
    code: 409870,
    message:
      'Conflict: the company of this CloudPBX does not allow call recording (allowCloudPbxRecording is false); nothing was stored',
  },
  RECORDING_PROFILE_EXCLUDES: {
    status: 409,
    code: 409871,
    message: 'Conflict: the recording profile of the recorded subscriber excludes this call; nothing was stored',
  },
  RECORDING_INBOUND_ONLY: {
    status: 409,
    code: 409872,
    message:
      'Conflict: the company records inbound calls only (cloudPbxRecordingInboundOnly) and this call is not inbound; nothing was stored',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof recordingErrors, true> {}
}
