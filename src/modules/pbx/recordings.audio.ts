// The audio of call recordings (issue 26, points 5, 8 and 9), on the audio layer of the hosted PBX
// (src/modules/pbx/audio.ts): the `audio` part of an ingestion streams straight to the files port
// and is judged from its content (WAV PCM, A-law, µ-law or MP3; its duration measured by
// music-metadata); a download streams the stored file, or the byte range asked.
import { PassThrough, type Readable } from 'node:stream';
import { fail } from '../../errors/catalogue.ts';
import type { BinaryAnswer } from '../../http/binary.ts';
import { AUDIO_TYPES, type MultipartMedia, type Upload } from '../../http/media.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';
import { storeAudio, type AudioInfo } from './audio.ts';

/** The multipart form of an ingestion: the `descriptor` field, then the `audio` file, streamed. */
/**
 * The largest recording taken: a call of some three and a half hours in 16-bit PCM at 8 kHz (58 MB
 * an hour), more in A-law, µ-law or MP3. Streamed to storage, never held in memory.
 */
export const RECORDING_MAX_BYTES = 200 * 1024 * 1024;

export const RECORDING_MULTIPART: MultipartMedia = {
  fileField: 'audio',
  types: [...AUDIO_TYPES, 'application/octet-stream'],
  maxBytes: RECORDING_MAX_BYTES,
  stream: true,
  description:
    'the recorded audio (WAV in PCM, A-law or µ-law, or MP3, judged from its content), sent after the `descriptor` field',
};

/**
 * Stores the upload's audio at `key` and measures it from its content (a refused audio leaves
 * nothing stored). (A form without its file part is refused by the framework before: 400011.)
 */
export async function storeRecordingAudio(
  files: FilesPort,
  key: string,
  upload: Upload | undefined,
): Promise<AudioInfo> {
  if (!upload) fail('AUDIO_EMPTY');
  // Issue 26, point 5 sets no length on a call: the greetings' 10 minutes do not apply.
  return storeAudio(files, key, upload, null);
}

/** A stream of a byte range of a stored file, opened when read (the answer's body is given synchronously). */
function rangeStream(files: FilesPort, key: string, start: number, end: number): Readable {
  const out = new PassThrough();
  files.openRead(key, { start, end }).then(
    (opened) => {
      if (!opened) out.destroy(new Error(`audio ${key} vanished`));
      else opened.stream.on('error', (err) => out.destroy(err)).pipe(out);
    },
    (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return out;
}

/** The stored audio of a recording as a binary answer (byte ranges are served by sendBinary). */
export async function recordingAudioAnswer(
  files: FilesPort,
  r: { id: string; storageKey: string; mediaType: string; creationDate: Date },
  fileName: string,
): Promise<BinaryAnswer> {
  const size = await files.size(r.storageKey);
  if (size === undefined) fail('NOT_FOUND', { target: 'recording audio', id: r.id });
  return {
    mediaType: r.mediaType,
    fileName,
    body: { size, open: (start, end) => rangeStream(files, r.storageKey, start, end) },
    lastModified: r.creationDate,
  };
}
