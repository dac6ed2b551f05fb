// Errors of the hosted PBX: (greetings, group voicemail greetings), n = 860-869 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const greetingErrors = {
  // Issue 26, point 3: audio judged from its content; each refusal names what is wrong.
  AUDIO_EMPTY: { status: 400, code: 400860, message: 'Bad Request: the audio file is empty' },
  AUDIO_NOT_AUDIO: {
    status: 400,
    code: 400861,
    message: 'Bad Request: the file is not audio (accepted: WAV in PCM, A-law or µ-law, and MP3)',
  },
  AUDIO_UNSUPPORTED: {
    status: 400,
    code: 400862,
    message: 'Bad Request: this audio format or codec is not accepted (accepted: WAV in PCM, A-law or µ-law, and MP3)',
  },
  AUDIO_TRUNCATED: {
    status: 400,
    code: 400863,
    message: 'Bad Request: the audio file is truncated or damaged (its data is shorter than its header announces)',
  },
  AUDIO_NO_SAMPLES: { status: 400, code: 400864, message: 'Bad Request: the audio file holds no sound (no samples)' },
  AUDIO_TOO_LONG: { status: 400, code: 400865, message: 'Bad Request: the audio lasts more than 10 minutes' },
  // Issue 26, point 3: scopes and their greetingIds.
  GREETING_ID_NOT_IN_SCOPE: {
    status: 400,
    code: 400866,
    message: 'Bad Request: this greetingId is not one of the scope (errorDetails.allowed lists them)',
  },
  GREETING_SCOPE_AMBIGUOUS: {
    status: 400,
    code: 400867,
    message: 'Bad Request: name at most one scope (groupId, ivrId, autoAttendantMenuId or attendant=true)',
  },
  GREETING_SCOPE_UNKNOWN: {
    status: 400,
    code: 400868,
    message:
      'Bad Request: the scope named is not of this CloudPBX (groupId: a hunting group; ivrId, autoAttendantMenuId: a welcome service)',
  },
  GREETING_NOT_DELETABLE: {
    status: 409,
    code: 409860,
    message: 'Conflict: only a stored file that is neither active nor a default can be deleted',
  },
  GREETING_DEFAULT_OTHER_LANGUAGE: {
    status: 409,
    code: 409861,
    message: 'Conflict: only the default file of the CloudPBX’s language can be active',
  },
  // Issue 26, point 4.
  GROUP_GREETING_EXISTS: {
    status: 409,
    code: 409862,
    message: 'Conflict: the group already has a voicemail greeting of this type (replace its audio instead)',
  },
  GROUP_GREETING_NOT_HUNTING: {
    status: 409,
    code: 409863,
    message: 'Conflict: only a hunting group has voicemail greetings',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof greetingErrors, true> {}
}
