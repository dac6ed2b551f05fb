// The audio layer of the hosted PBX (src/modules/pbx/audio.ts, src/ports/files): issue 26, point 3
// (audio judged from its content: WAV PCM, A-law, µ-law and MP3; 10 MB, 10 minutes; not audio,
// empty, truncated refused, nothing stored) and point 8 (the files port writes and reads streams).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect } from '../support/expect.ts';
import { dataFolderFiles } from '../../src/ports/files/files.data-folder.ts';
import type { FilesPort } from '../../src/ports/files/files.port.ts';
import { storeAudio, AUDIO_MAX_BYTES } from '../../src/modules/pbx/audio.ts';
import { AppError, ERRORS, registerErrors } from '../../src/errors/catalogue.ts';
import { greetingErrors } from '../../src/modules/pbx/greetings.errors.ts';
import { limitStream } from '../../src/http/media.ts';
import { mp3, wav, wavHeaderOnly } from './audio-fixtures.ts';

let root: string;
let files: FilesPort;

beforeAll(async () => {
  // The catalogue is assembled when the app starts; this test runs the layer without an app.
  if (!('AUDIO_EMPTY' in ERRORS)) registerErrors('pbx greetings', greetingErrors);
  root = await mkdtemp(join(tmpdir(), 'audio-test-'));
  files = dataFolderFiles(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every file of the data folder (temporary ones included). */
async function allFiles(): Promise<string[]> {
  const all = await readdir(root, { recursive: true, withFileTypes: true });
  return all.filter((d) => d.isFile()).map((d) => d.name);
}

async function refusal(key: string, body: Buffer | Readable): Promise<AppError> {
  try {
    await storeAudio(files, key, body instanceof Readable ? body : Readable.from([body]));
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('files port: streams (issue 26, point 8)', () => {
  it('issue 26, point 8: putStream writes a stream under a key and answers its size; openRead reads it whole or a byte range', async () => {
    const { size } = await files.putStream(
      'a/b/c.txt',
      Readable.from([Buffer.from('hello '), Buffer.from('world')]),
      'text/plain',
    );
    expect(size).toBe(11);
    const whole = await files.openRead('a/b/c.txt');
    expect(whole!.size).toBe(11);
    expect(await text(whole!.stream)).toBe('hello world');
    const part = await files.openRead('a/b/c.txt', { start: 6, end: 9 });
    expect(part!.size).toBe(11);
    expect(await text(part!.stream)).toBe('worl');
    expect(await files.size('a/b/c.txt')).toBe(11);
    expect(await files.openRead('a/b/none')).toBe(undefined);
    // The buffer methods still work on what a stream wrote.
    expect((await files.get('a/b/c.txt'))!.bytes.toString()).toBe('hello world');
    expect(await files.delete('a/b/c.txt')).toBe(true);
    expect(await files.size('a/b/c.txt')).toBe(undefined);
  });

  it('issue 26, point 8: a stream that fails leaves nothing under its key, not even a temporary file', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('client gone'));
      },
    });
    await expect(files.putStream('x/failed.bin', failing, 'application/octet-stream')).rejects.toThrow('client gone');
    expect(await files.size('x/failed.bin')).toBe(undefined);
    expect((await allFiles()).filter((n) => n.startsWith('failed'))).toEqual([]);
  });
});

describe('audio judged from its content (issue 26, point 3)', () => {
  for (const codec of ['pcm', 'alaw', 'ulaw'] as const) {
    it(`issue 26, point 3: a WAV in ${codec} is accepted, its duration measured from the audio`, async () => {
      const body = wav(codec, 2.5);
      const info = await storeAudio(files, `ok/${codec}.wav`, Readable.from([body]));
      expect(info).toEqual({ mediaType: 'audio/wav', size: body.length, duration: 2.5 });
      expect(await files.size(`ok/${codec}.wav`)).toBe(body.length);
    });
  }

  it('issue 26, point 3: an MP3 is accepted, its duration counted from its frames', async () => {
    const body = mp3(3);
    const info = await storeAudio(files, 'ok/a.mp3', Readable.from([body]));
    expect(info.mediaType).toBe('audio/mpeg');
    expect(info.size).toBe(body.length);
    expect(Math.abs(info.duration - 3)).toBeLessThan(0.03);
    // At least one decimal: not rounded to whole seconds.
    expect(Number.isInteger(info.duration)).toBe(false);
  });

  const refused: [string, () => Buffer, string][] = [
    ['an empty body', () => Buffer.alloc(0), 'AUDIO_EMPTY'],
    ['text', () => Buffer.from('this is not audio, only some words of text'), 'AUDIO_NOT_AUDIO'],
    [
      'a PNG image',
      () => Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
      'AUDIO_NOT_AUDIO',
    ],
    ['a truncated WAV (data shorter than its header says)', () => wav('pcm', 2).subarray(0, 10_000), 'AUDIO_TRUNCATED'],
    ['a WAV header without its data', () => wavHeaderOnly(2), 'AUDIO_TRUNCATED'],
    ['a WAV cut inside its header', () => wav('pcm', 2).subarray(0, 30), 'AUDIO_TRUNCATED'],
    ['a WAV without samples', () => wav('pcm', 0), 'AUDIO_NO_SAMPLES'],
    ['a WAV longer than 10 minutes', () => wav('alaw', 601, 8000), 'AUDIO_TOO_LONG'],
  ];
  for (const [what, body, key] of refused) {
    it(`issue 26, point 3: ${what} is refused 400 (${key}), and nothing stays stored`, async () => {
      const name = `bad/${key}-${Math.random().toString(36).slice(2)}`;
      const err = await refusal(name, body());
      expect(err.key).toBe(key);
      expect(err.message).toMatch(/^Bad Request: /);
      expect(await files.size(name)).toBe(undefined);
      expect((await allFiles()).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('issue 26, point 3: a WAV in another codec (IEEE float) is refused 400 naming the codec', async () => {
    const body = wav('pcm', 1);
    body.writeUInt16LE(3, 20); // format 3: IEEE float
    const err = await refusal('bad/float.wav', body);
    expect(err.key).toBe('AUDIO_UNSUPPORTED');
    expect(err.details).toEqual({ container: 'WAV', codec: 'IEEE_FLOAT' });
    expect(await files.size('bad/float.wav')).toBe(undefined);
  });

  it('issue 26, point 3: more than 10 MB is refused 413 on the stream, and nothing stays stored', async () => {
    const big = wav('pcm', 700, 8000); // 11.2 MB
    expect(big.length).toBeGreaterThan(AUDIO_MAX_BYTES);
    const limited = limitStream(
      Readable.from([big.subarray(0, 5_000_000), big.subarray(5_000_000)]),
      AUDIO_MAX_BYTES,
      'audio/wav',
    );
    const err = await refusal('bad/big.wav', limited);
    expect(err.key).toBe('BODY_TOO_LARGE');
    expect(await files.size('bad/big.wav')).toBe(undefined);
    expect((await allFiles()).filter((n) => n.startsWith('big'))).toEqual([]);
  });
});
