// The audio of call recordings (issue 26, points 5 and 8): stored behind the files port under the
// recording's key, measured from its content, downloaded with byte ranges.
import type { ErrorKey } from '../../errors/catalogue.ts';
import { fail } from '../../errors/catalogue.ts';
import type { BinaryAnswer } from '../../http/binary.ts';
import { AUDIO_TYPES, type MultipartMedia, type Upload } from '../../http/media.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';
import type { StoredAudio } from './recordings.service.ts';

/** Largest recording accepted: a few hours of telephone audio. */
export const RECORDING_MAX_BYTES = 200 * 1024 * 1024;

export const RECORDING_MULTIPART: MultipartMedia = {
  fileField: 'audio',
  types: AUDIO_TYPES,
  maxBytes: RECORDING_MAX_BYTES,
  description: 'the recorded audio (WAV or MP3, judged from its content), after the `descriptor` field',
};

/** The errors the audio layer gives (bad or missing audio). */
export const AUDIO_ERRORS: readonly ErrorKey[] = [];

/** Stores the upload's audio at `key` and measures it. */
export async function storeRecordingAudio(
  files: FilesPort,
  key: string,
  upload: Upload | undefined,
): Promise<StoredAudio> {
  if (!upload) fail('RECORDING_AUDIO_MISSING', { field: 'audio' });
  void files;
  void key;
  throw new Error('audio layer not merged yet');
}

/** The stored audio of a recording as a binary answer (ranges are served by the framework). */
export async function recordingAudioAnswer(
  files: FilesPort,
  r: { storageKey: string; mediaType: string; creationDate: Date },
  fileName: string,
): Promise<BinaryAnswer> {
  const file = await files.get(r.storageKey);
  if (!file) fail('NOT_FOUND', { target: 'recording audio' });
  return { mediaType: r.mediaType, fileName, body: file.bytes, lastModified: r.creationDate };
}
