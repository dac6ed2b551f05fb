// Audio of the hosted PBX (greetings, group voicemail greetings, recordings; issue 26, points 3, 4,
// 5, 8 and 9): an upload goes straight from the request to the files port as a stream (memory does
// not grow with the file's size), and is then judged from its content by music-metadata, a
// well-kept parser (no hand-written one), whatever type the client declared. Accepted: WAV (PCM,
// A-law, µ-law) and MP3; at most 10 MB (413 beyond, counted on the stream) and 10 minutes (400
// beyond). Anything else is 400 naming what is wrong, and the stored file is removed: nothing stays
// stored on a refusal.
import { Readable } from 'node:stream';
import { parseStream } from 'music-metadata';
import { AUDIO_TYPES, type RawMedia, type Upload } from '../../http/media.ts';
import { AppError, fail, type ErrorKey } from '../../errors/catalogue.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';

/** The refusals of the audio layer (issue 26, point 3's audio rules), for the operations that take audio. */
export const AUDIO_ERRORS = [
  'AUDIO_EMPTY',
  'AUDIO_NOT_AUDIO',
  'AUDIO_UNSUPPORTED',
  'AUDIO_TRUNCATED',
  'AUDIO_NO_SAMPLES',
  'AUDIO_TOO_LONG',
] as const satisfies readonly ErrorKey[];

/** Issue 26, point 3: at most 10 MB of audio. */
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
/** Issue 26, point 3: at most 10 minutes. */
export const AUDIO_MAX_SECONDS = 600;

/**
 * The raw request media of an audio upload: the usual audio types and application/octet-stream (the
 * declared type proves nothing: the content is judged), streamed whatever its size (issue 26, point 9).
 */
export const AUDIO_UPLOAD: RawMedia = {
  types: [...AUDIO_TYPES, 'application/octet-stream'],
  maxBytes: AUDIO_MAX_BYTES,
  stream: true,
  description: 'the audio: WAV (PCM, A-law, µ-law) or MP3, at most 10 minutes, judged from its content',
};

/** What the content says of stored audio. */
export interface AudioInfo {
  /** audio/wav or audio/mpeg, from the content. */
  mediaType: 'audio/wav' | 'audio/mpeg';
  /** Bytes stored. */
  size: number;
  /** Seconds, to the millisecond (the contract asks at least one decimal). */
  duration: number;
}

/** WAV codecs as music-metadata names them: PCM, A-law and µ-law (issue 26, point 3). */
const WAV_CODECS = new Set(['PCM', 'ALAW', 'MULAW']);

/** The stream of an upload (operations declaring AUDIO_UPLOAD always get one; a buffer is wrapped). */
export function uploadStream(upload: Upload): Readable {
  return upload.kind === 'stream' ? upload.stream : Readable.from([upload.data]);
}

/**
 * Stores an audio upload under `key`, then judges it from its content. Answers its media type,
 * size and duration; on any refusal the stored file is removed and the AppError thrown (413 beyond
 * the operation's size limit, 400 otherwise). `maxSeconds`: the longest audio taken (the greetings'
 * 10 minutes by default; null for none). The caller writes its row only after this succeeds (issue 26, point 8:
 * audio written before the row commits).
 */
export async function storeAudio(
  files: FilesPort,
  key: string,
  upload: Upload | Readable,
  maxSeconds: number | null = AUDIO_MAX_SECONDS,
): Promise<AudioInfo> {
  const stream = upload instanceof Readable ? upload : uploadStream(upload);
  // putStream writes a temporary file renamed once complete: a stream failing (413 past 10 MB, a
  // client gone) leaves nothing under the key.
  const { size } = await files.putStream(key, stream, 'application/octet-stream');
  try {
    const info = await judgeAudio(files, key, size, maxSeconds);
    return info;
  } catch (err) {
    await files.delete(key).catch(() => undefined);
    throw err;
  }
}

/** Reads stored audio back and judges it (the rules of storeAudio); throws the refusal. */
export async function judgeAudio(
  files: FilesPort,
  key: string,
  size: number,
  maxSeconds: number | null = AUDIO_MAX_SECONDS,
): Promise<AudioInfo> {
  if (size === 0) fail('AUDIO_EMPTY');
  const opened = await files.openRead(key);
  if (!opened) throw new Error(`audio ${key} vanished after it was written`);
  let meta: Awaited<ReturnType<typeof parseStream>>;
  try {
    // duration: true makes the parser scan every MPEG frame rather than guess from the first ones.
    meta = await parseStream(opened.stream, { size }, { duration: true, skipCovers: true });
  } catch (err) {
    if (err instanceof AppError) throw err;
    fail('AUDIO_NOT_AUDIO');
  } finally {
    opened.stream.destroy();
  }
  const { container, codec, duration, sampleRate } = meta.format;
  const warnings = meta.quality.warnings.map((w) => w.message);
  let mediaType: AudioInfo['mediaType'];
  if (container === 'WAVE') {
    if (codec === undefined || sampleRate === undefined) fail('AUDIO_TRUNCATED', { reason: 'no format or data chunk' });
    if (!WAV_CODECS.has(codec)) fail('AUDIO_UNSUPPORTED', { container: 'WAV', codec });
    // The parser's warning when the data chunk announces more bytes than the file holds.
    if (warnings.includes('data chunk length exceeding file length'))
      fail('AUDIO_TRUNCATED', { reason: 'the data chunk is shorter than its header announces' });
    mediaType = 'audio/wav';
  } else if (container === 'MPEG' && codec !== undefined && /Layer 3$/.test(codec)) {
    mediaType = 'audio/mpeg';
  } else if (container === undefined || codec === undefined) {
    fail('AUDIO_NOT_AUDIO');
  } else {
    fail('AUDIO_UNSUPPORTED', { container, codec });
  }
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) fail('AUDIO_NO_SAMPLES');
  if (maxSeconds !== null && duration > maxSeconds) fail('AUDIO_TOO_LONG', { duration: round(duration), maxSeconds });
  return { mediaType, size, duration: round(duration) };
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** The kinds of audio of a CloudPBX, each a folder of its own (docs/decisions.md, Greetings: storage). */
export type AudioKind = 'greetings' | 'group-greetings' | 'recordings';

/**
 * Where an audio file lives in the files port (issue 26, point 8: its path per company and
 * CloudPBX): `pbx/<companyId>/<cloudPbxId>/<kind>/<id>`; on the data folder, under
 * DATA_DIR/files/. A new upload gets a new id, so a replaced file never overwrites one a row
 * still names.
 */
export function audioKey(companyId: string, cloudPbxId: string, kind: AudioKind, id: string): string {
  return `pbx/${companyId}/${cloudPbxId}/${kind}/${id}`;
}

/** The parts of an audio key (audioKey's inverse); undefined for another key. */
export function parseAudioKey(
  key: string,
): { companyId: string; cloudPbxId: string; kind: AudioKind; id: string } | undefined {
  const m = /^pbx\/([^/]+)\/([^/]+)\/(greetings|group-greetings|recordings)\/([^/]+)$/.exec(key);
  if (!m) return undefined;
  const kind = m[3] === 'greetings' ? 'greetings' : m[3] === 'group-greetings' ? 'group-greetings' : 'recordings';
  return { companyId: m[1], cloudPbxId: m[2], kind, id: m[4] };
}
