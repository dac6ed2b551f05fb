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
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof greetingErrors, true> {}
}
