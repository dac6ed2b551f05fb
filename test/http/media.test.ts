// Issue 6, point 6: media types in the operation declaration. Operations declared here, on a test
// app built from the same parts as the service (error handler, media, OpenAPI, registerOperation),
// exercise what no operation of the service uses yet: streamed uploads above 10 MB, raw audio and
// CSV bodies with parameters in the query, multipart forms, and binary answers with byte ranges.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import { expect } from '../support/expect.ts';
import { validateResponse } from '../support/openapi-validator.ts';
import { installErrorHandling } from '../../src/errors/handler.ts';
import { installMedia, AUDIO_TYPES, CSV_TYPES, IMAGE_TYPES, uploadBytes } from '../../src/http/media.ts';
import { Binary } from '../../src/http/binary.ts';
import { installOpenApi } from '../../src/http/openapi.ts';
import { defineOperation, registerOperation, type AnyOperation } from '../../src/http/operation.ts';
import { Obj } from '../../src/http/schemas.ts';
import { ErrorSchema } from '../../src/http/schemas.ts';
import { POLICY } from '../../src/authz/policy.ts';
import { publicOp } from '../../src/authz/grant.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppDeps } from '../../src/http/context.ts';

const MB = 1024 * 1024;
const STREAM_LIMIT = 24 * MB;
const SMALL_LIMIT = 64 * 1024;

/** Bytes the test has produced for the streamed upload so far (read by the handler when it starts). */
let produced = 0;
let producedWhenHandlerStarted = -1;

const Result = Obj({
  kind: Type.String(),
  mediaType: Type.String(),
  bytes: Type.Integer(),
  sha256: Type.String(),
  fileName: Type.Optional(Type.String()),
  fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  query: Type.Optional(Type.Record(Type.String(), Type.String())),
});

async function digest(stream: AsyncIterable<Buffer>): Promise<{ bytes: number; sha256: string }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    h.update(chunk);
  }
  return { bytes, sha256: h.digest('hex') };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** 1000 bytes of a known pattern: byte i is i % 251. */
const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

const ops: AnyOperation[] = [
  defineOperation({
    operationId: 'testStreamedUpload',
    method: 'PUT',
    path: '/test/streamed/:name',
    tag: 'Test',
    summary: 'streamed raw audio (limit above 10 MB)',
    params: Obj({ name: Type.String() }),
    media: { json: false, raw: [{ types: AUDIO_TYPES, maxBytes: STREAM_LIMIT }] },
    response: Result,
    envelope: 'data',
    successStatus: 200,
    handler: async (_ctx, { upload }) => {
      producedWhenHandlerStarted = produced;
      if (upload?.kind !== 'stream') throw new Error('expected a stream');
      return { kind: upload.kind, mediaType: upload.mediaType, ...(await digest(upload.stream)) };
    },
  }),
  defineOperation({
    operationId: 'testGreetingUpload',
    method: 'PUT',
    path: '/test/greetings/:greetingId',
    tag: 'Test',
    summary: 'a greeting: raw audio as the body, its file name in the query (document 2)',
    params: Obj({ greetingId: Type.String() }),
    query: Obj({ fileName: Type.Optional(Type.String()) }),
    media: { json: false, raw: [{ types: AUDIO_TYPES, maxBytes: SMALL_LIMIT }] },
    response: Result,
    envelope: 'data',
    successStatus: 200,
    handler: async (_ctx, { upload, query }) => {
      const data = uploadBytes(upload!);
      return {
        kind: upload!.kind,
        mediaType: upload!.mediaType,
        bytes: data.length,
        sha256: sha(data),
        ...(query.fileName ? { fileName: query.fileName } : {}),
      };
    },
  }),
  defineOperation({
    operationId: 'testCsvImport',
    method: 'POST',
    path: '/test/imports',
    tag: 'Test',
    summary: 'a raw text/csv body with its parameters in the query (bulk import)',
    query: Obj({ companyId: Type.Optional(Type.String()), delimiter: Type.Optional(Type.String()) }),
    media: { json: false, raw: [{ types: CSV_TYPES, maxBytes: SMALL_LIMIT }] },
    response: Result,
    envelope: 'data',
    successStatus: 200,
    idempotent: false,
    handler: async (_ctx, { upload, query }) => {
      const data = uploadBytes(upload!);
      return {
        kind: upload!.kind,
        mediaType: upload!.mediaType,
        bytes: data.length,
        sha256: sha(data),
        query: query,
      };
    },
  }),
  defineOperation({
    operationId: 'testFormUpload',
    method: 'POST',
    path: '/test/forms',
    tag: 'Test',
    summary: 'JSON or a multipart form with one file',
    body: Obj({ text: Type.String() }),
    media: { json: { maxBytes: 2048 }, multipart: { fileField: 'file', types: IMAGE_TYPES, maxBytes: SMALL_LIMIT } },
    response: Result,
    envelope: 'data',
    successStatus: 200,
    idempotent: false,
    handler: async (_ctx, { upload, body }) => {
      if (!upload)
        return {
          kind: 'json',
          mediaType: 'application/json',
          bytes: body.text.length,
          sha256: sha(Buffer.from(body.text)),
        };
      const data = uploadBytes(upload);
      return {
        kind: upload.kind,
        mediaType: upload.mediaType,
        bytes: data.length,
        sha256: sha(data),
        fileName: upload.fileName,
        fields: upload.fields,
      };
    },
  }),
  defineOperation({
    operationId: 'testStreamedForm',
    method: 'POST',
    path: '/test/streamed-forms',
    tag: 'Test',
    summary: 'a multipart form whose file may be above 10 MB: streamed',
    media: { json: false, multipart: { fileField: 'recording', maxBytes: STREAM_LIMIT } },
    response: Result,
    envelope: 'data',
    successStatus: 200,
    idempotent: false,
    handler: async (_ctx, { upload }) => {
      if (upload?.kind !== 'stream') throw new Error('expected a stream');
      return {
        kind: upload.kind,
        mediaType: upload.mediaType,
        fileName: upload.fileName,
        ...(await digest(upload.stream)),
      };
    },
  }),
  defineOperation({
    operationId: 'testAudioAnswer',
    method: 'GET',
    path: '/test/audio/:name',
    tag: 'Test',
    summary: 'an audio file, with byte ranges',
    params: Obj({ name: Type.String() }),
    response: Binary({ types: ['audio/mpeg'], description: 'the audio', ranges: true }),
    envelope: 'binary',
    handler: async (_ctx, { params }) =>
      params.name === 'streamed'
        ? {
            mediaType: 'audio/mpeg',
            fileName: 'streamed.mp3',
            body: {
              size: AUDIO.length,
              open: (start: number, end: number) => Readable.from([AUDIO.subarray(start, end + 1)]),
            },
          }
        : { mediaType: 'audio/mpeg', fileName: 'Grüße €.mp3', disposition: 'attachment' as const, body: AUDIO },
  }),
  defineOperation({
    operationId: 'testCsvAnswer',
    method: 'GET',
    path: '/test/template.csv',
    tag: 'Test',
    summary: 'a CSV file',
    response: Binary({ types: ['text/csv'], description: 'a CSV template' }),
    envelope: 'binary',
    handler: async () => ({
      mediaType: 'text/csv',
      fileName: 'template.csv',
      disposition: 'attachment' as const,
      body: Buffer.from('loginEmail;firstName\n'),
    }),
  }),
];

let app: FastifyInstance;
let spec: Record<string, unknown>;

async function inject(o: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await app.inject(o);
  validateResponse(spec, String(o.method ?? 'GET'), String(o.url), res);
  return res;
}

beforeAll(async () => {
  for (const op of ops) POLICY[op.operationId] = publicOp('test operation of test/http/media.test.ts');
  const config = loadConfig({});
  // Public operations that are not POSTs with Idempotency-Key never reach the database.
  const deps = { config, database: { db: undefined }, now: () => new Date() } as unknown as AppDeps;
  app = Fastify({ bodyLimit: config.bodyLimitBytes });
  installErrorHandling(app);
  await installMedia(app);
  await installOpenApi(app);
  app.addSchema(ErrorSchema);
  for (const op of ops) registerOperation(app, deps, op);
  await app.listen({ port: 0, host: '127.0.0.1' });
  spec = app.swagger() as unknown as Record<string, unknown>;
});
afterAll(() => app.close());

function expectError(res: LightMyRequestResponse, status: number, code: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toEqual({
    errorCode: status,
    errorMsg: expect.any(String),
    errorDetails: expect.any(Object),
    errorDetailsCode: code,
  });
  expect(Array.isArray(body.errorDetails)).toBe(false);
}

/** `total` bytes in chunks of 64 KB, produced only when read (counted in `produced`). */
function lazyBody(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 7);
  let left = total;
  return new Readable({
    read() {
      if (left === 0) return this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      produced += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A PUT over a real connection, the body sent chunked (no Content-Length) as it is produced. */
function overHttp(path: string, contentType: string, body: Readable): Promise<{ status: number; text: string }> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', method: 'PUT', path, headers: { 'content-type': contentType } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString() }));
      },
    );
    // The server may answer 413 and stop reading before the whole body is sent.
    req.on('error', (err) =>
      err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err),
    );
    body.pipe(req);
  });
}

describe('streamed uploads (declared limit above 10 MB)', () => {
  it('a 20 MB upload reaches the handler as a stream, before it is read, and the process does not hold it in memory', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const base = process.memoryUsage();
    let peak = 0;
    const sample = () => {
      gc();
      const m = process.memoryUsage();
      peak = Math.max(peak, m.arrayBuffers - base.arrayBuffers, m.heapUsed - base.heapUsed);
    };
    const total = 20 * MB;
    produced = 0;
    const body = lazyBody(total);
    // Sampled every megabyte while the upload runs: a buffered body would have grown by up to 20 MB.
    let next = MB;
    body.on('data', () => {
      if (produced >= next) {
        next += MB;
        sample();
      }
    });
    const answer = await overHttp('/api/svc/test/streamed/x', 'audio/wav', body);
    expect(answer.status, answer.text).toBe(200);
    const expected = createHash('sha256');
    for (let left = total; left > 0; left -= 64 * 1024) expected.update(Buffer.alloc(Math.min(left, 64 * 1024), 7));
    expect(JSON.parse(answer.text).data).toEqual({
      kind: 'stream',
      mediaType: 'audio/wav',
      bytes: total,
      sha256: expected.digest('hex'),
    });
    // The handler started with at most a few chunks read (the stream was not read into memory first).
    expect(producedWhenHandlerStarted).toBeLessThan(4 * MB);
    expect(peak).toBeLessThan(8 * MB);
  });

  it('one byte over the limit gives 413 in the error shape, whether the length is announced or not', async () => {
    const announced = await inject({
      method: 'PUT',
      url: '/api/svc/test/streamed/x',
      headers: { 'content-type': 'audio/mpeg', 'content-length': String(STREAM_LIMIT + 1) },
      payload: lazyBody(STREAM_LIMIT + 1),
    });
    expectError(announced, 413, 413000);
    // Without Content-Length (chunked): the limit is enforced while the handler reads the stream.
    const chunked = await inject({
      method: 'PUT',
      url: '/api/svc/test/streamed/x',
      headers: { 'content-type': 'audio/mpeg' },
      payload: lazyBody(STREAM_LIMIT + 1),
    });
    expectError(chunked, 413, 413000);
    expect(chunked.json().errorDetails).toMatchObject({ maxBytes: STREAM_LIMIT });
  });

  it('over a real connection the client gets the 413 answer, for a streamed and for a buffered upload, and the server keeps serving', async () => {
    for (const [path, limit] of [
      ['/api/svc/test/streamed/x', STREAM_LIMIT],
      ['/api/svc/test/greetings/welcome', SMALL_LIMIT],
    ] as const) {
      const res = await overHttp(path, 'audio/wav', lazyBody(limit + 1));
      expect(res.status, `${path}: ${res.text}`).toBe(413);
      expect(JSON.parse(res.text)).toMatchObject({ errorCode: 413, errorDetailsCode: 413000 });
    }
    expect((await overHttp('/api/svc/test/greetings/welcome', 'audio/wav', Readable.from([AUDIO]))).status).toBe(200);
  });

  it('exactly the limit is accepted', async () => {
    const res = await inject({
      method: 'PUT',
      url: '/api/svc/test/streamed/x',
      headers: { 'content-type': 'audio/ogg' },
      payload: lazyBody(STREAM_LIMIT),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.bytes).toBe(STREAM_LIMIT);
  });
});

describe('raw request bodies', () => {
  const put = (payload: Buffer | string, type?: string, url = '/api/svc/test/greetings/welcome?fileName=hello.wav') =>
    inject({ method: 'PUT', url, headers: type ? { 'content-type': type } : {}, payload });

  it('doc 2, upload a greeting: the audio file is the body (audio/wav, audio/mpeg, audio/ogg), its name in the query', async () => {
    for (const type of ['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/x-wav']) {
      const res = await put(AUDIO, type);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({
        kind: 'buffer',
        mediaType: type,
        bytes: AUDIO.length,
        sha256: sha(AUDIO),
        fileName: 'hello.wav',
      });
    }
  });

  it('a media type the operation does not declare gives 415 (JSON included, when not declared)', async () => {
    for (const type of ['text/plain', 'application/json', 'image/png', 'application/octet-stream', 'video/mp4']) {
      expectError(await put(type === 'application/json' ? '{"a":1}' : AUDIO, type), 415, 415000);
    }
    // A body without any Content-Type.
    expectError(
      await inject({
        method: 'PUT',
        url: '/api/svc/test/greetings/welcome',
        payload: AUDIO,
        headers: { 'content-type': '' },
      }),
      415,
      415000,
    );
  });

  it('the limit is that of the media type: exactly the limit is accepted, one byte more gives 413', async () => {
    expect((await put(Buffer.alloc(SMALL_LIMIT, 1), 'audio/wav')).statusCode).toBe(200);
    expectError(await put(Buffer.alloc(SMALL_LIMIT + 1, 1), 'audio/wav'), 413, 413000);
    // Without Content-Length, counted while reading.
    expectError(
      await inject({
        method: 'PUT',
        url: '/api/svc/test/greetings/welcome',
        headers: { 'content-type': 'audio/wav' },
        payload: lazyBody(SMALL_LIMIT + 1),
      }),
      413,
      413000,
    );
  });

  it('an empty body gives 400 (400010)', async () => {
    expectError(await put(Buffer.alloc(0), 'audio/wav'), 400, 400010);
    expectError(await inject({ method: 'PUT', url: '/api/svc/test/greetings/welcome' }), 400, 400010);
  });

  it('bulk import: a raw text/csv body (charset parameter allowed) with its parameters in the query', async () => {
    const csv = Buffer.from('loginEmail;firstName\nann@example.com;Ann\n');
    const res = await inject({
      method: 'POST',
      url: '/api/svc/test/imports?companyId=c1&delimiter=%3B',
      headers: { 'content-type': 'text/csv; charset=utf-8' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      kind: 'buffer',
      mediaType: 'text/csv',
      bytes: csv.length,
      sha256: sha(csv),
      query: { companyId: 'c1', delimiter: ';' },
    });
    expectError(
      await inject({
        method: 'POST',
        url: '/api/svc/test/imports',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      }),
      415,
      415000,
    );
  });
});

describe('multipart/form-data and JSON on one operation', () => {
  const boundary = '----svc-test-boundary';
  const form = (parts: { name: string; filename?: string; type?: string; data: Buffer | string }[], close = true) =>
    Buffer.concat([
      ...parts.map((p) =>
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
          ),
          Buffer.from(p.data),
          Buffer.from('\r\n'),
        ]),
      ),
      Buffer.from(close ? `--${boundary}--\r\n` : ''),
    ]);
  const post = (payload: Buffer, type = `multipart/form-data; boundary=${boundary}`) =>
    inject({ method: 'POST', url: '/api/svc/test/forms', headers: { 'content-type': type }, payload });

  it('the file of a form reaches the handler with its name, type and the fields sent before it', async () => {
    const res = await post(
      form([
        { name: 'label', data: 'logo' },
        { name: 'file', filename: 'logo.png', type: 'image/png', data: AUDIO },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      kind: 'buffer',
      mediaType: 'image/png',
      bytes: AUDIO.length,
      sha256: sha(AUDIO),
      fileName: 'logo.png',
      fields: { label: 'logo' },
    });
  });

  it('JSON still works, under its own limit (2 KB here: 413 beyond)', async () => {
    const ok = await inject({ method: 'POST', url: '/api/svc/test/forms', payload: { text: 'hello' } });
    expect(ok.json().data).toMatchObject({ kind: 'json', bytes: 5 });
    expectError(
      await inject({ method: 'POST', url: '/api/svc/test/forms', payload: { text: 'x'.repeat(3000) } }),
      413,
      413000,
    );
  });

  it('a file over the limit gives 413; a form without file, a truncated or malformed form, or no boundary give 400', async () => {
    expectError(
      await post(form([{ name: 'file', filename: 'big.png', type: 'image/png', data: Buffer.alloc(SMALL_LIMIT + 1) }])),
      413,
      413000,
    );
    expectError(await post(form([{ name: 'label', data: 'no file' }])), 400, 400011);
    expectError(await post(form([{ name: 'file', filename: 'empty.png', type: 'image/png', data: '' }])), 400, 400010);
    expectError(
      await post(form([{ name: 'file', filename: 'cut.png', type: 'image/png', data: AUDIO }], false)),
      400,
      400011,
    );
    expectError(await post(Buffer.from('this is not a form at all')), 400, 400011);
    expectError(
      await post(form([{ name: 'file', filename: 'a.png', data: AUDIO }]), 'multipart/form-data'),
      400,
      400011,
    );
  });
});

describe('multipart/form-data above 10 MB', () => {
  const boundary = '----svc-stream-boundary';
  /** A form whose file part is `size` bytes produced lazily. */
  const streamedForm = (size: number) =>
    Readable.from(
      (async function* () {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="recording"; filename="call.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
        );
        yield* lazyBody(size);
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      })(),
    );
  const post = (size: number) =>
    inject({
      method: 'POST',
      url: '/api/svc/test/streamed-forms',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: streamedForm(size),
    });

  it('the file reaches the handler as a stream; one byte over the limit gives 413', async () => {
    const ok = await post(12 * MB);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({
      kind: 'stream',
      mediaType: 'audio/wav',
      fileName: 'call.wav',
      bytes: 12 * MB,
    });
    expectError(await post(STREAM_LIMIT + 1), 413, 413000);
  });
});

describe('binary answers', () => {
  it('Content-Type, Content-Length, Content-Disposition (a non-ASCII file name as filename*) and Accept-Ranges', async () => {
    const res = await inject({ method: 'GET', url: '/api/svc/test/audio/hello' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['content-length']).toBe(String(AUDIO.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Gr??e ?.mp3"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%E2%82%AC.mp3`,
    );
    expect(Buffer.compare(res.rawPayload, AUDIO)).toBe(0);
  });

  for (const name of ['hello', 'streamed']) {
    it(`byte ranges (${name === 'streamed' ? 'a body opened per range' : 'a buffer'}): 206 with Content-Range, suffix and open ranges; 416 for unsatisfiable ones`, async () => {
      const url = `/api/svc/test/audio/${name}`;
      const r = await inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
      expect(r.statusCode).toBe(206);
      expect(r.headers['content-range']).toBe(`bytes 100-199/${AUDIO.length}`);
      expect(r.headers['content-length']).toBe('100');
      expect(Buffer.compare(r.rawPayload, AUDIO.subarray(100, 200))).toBe(0);
      const suffix = await inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
      expect(suffix.headers['content-range']).toBe(`bytes 990-999/${AUDIO.length}`);
      expect(Buffer.compare(suffix.rawPayload, AUDIO.subarray(990))).toBe(0);
      const open = await inject({ method: 'GET', url, headers: { range: 'bytes=900-' } });
      expect(open.headers['content-range']).toBe(`bytes 900-999/${AUDIO.length}`);
      const beyond = await inject({ method: 'GET', url, headers: { range: 'bytes=5000-6000' } });
      expectError(beyond, 416, 416000);
      expect(beyond.headers['content-range']).toBe(`bytes */${AUDIO.length}`);
      // A malformed Range is ignored: the whole file.
      const malformed = await inject({ method: 'GET', url, headers: { range: 'lines=1-2' } });
      expect(malformed.statusCode).toBe(200);
      expect(malformed.rawPayload.length).toBe(AUDIO.length);
    });
  }

  it('a CSV file is an attachment with its name; answers without declared ranges ignore Range', async () => {
    const res = await inject({ method: 'GET', url: '/api/svc/test/template.csv', headers: { range: 'bytes=0-3' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename=template.csv');
    expect(res.headers['accept-ranges']).toBeUndefined();
    expect(res.body).toBe('loginEmail;firstName\n');
  });
});

describe('the OpenAPI document', () => {
  const path = (p: string) => (spec.paths as Record<string, Record<string, Record<string, any>>>)[p];

  it('documents each request media type under its content type, and no JSON where JSON is not taken', () => {
    expect(Object.keys(path('/api/svc/test/greetings/{greetingId}').put.requestBody.content)).toEqual([...AUDIO_TYPES]);
    expect(Object.keys(path('/api/svc/test/imports').post.requestBody.content)).toEqual(['text/csv']);
    const form = path('/api/svc/test/forms').post.requestBody.content;
    expect(Object.keys(form)).toEqual(['application/json', 'multipart/form-data']);
    expect(form['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(path('/api/svc/test/streamed/{name}').put.requestBody.content['audio/wav'].schema).toMatchObject({
      type: 'string',
      format: 'binary',
      description: expect.stringContaining('streamed'),
    });
  });

  it('documents binary answers under their media types (never application/json), with 206 and 416 where ranges are served', () => {
    const audio = path('/api/svc/test/audio/{name}').get.responses;
    expect(Object.keys(audio['200'].content)).toEqual(['audio/mpeg']);
    expect(Object.keys(audio['206'].content)).toEqual(['audio/mpeg']);
    expect(Object.keys(audio['206'].headers)).toEqual(
      expect.arrayContaining(['Content-Range', 'Content-Length', 'Content-Disposition', 'Accept-Ranges']),
    );
    expect(audio['416']).toBeDefined();
    const csv = path('/api/svc/test/template.csv').get.responses;
    expect(Object.keys(csv['200'].content)).toEqual(['text/csv']);
    expect(csv['206']).toBeUndefined();
  });
});
