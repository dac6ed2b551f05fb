// A route the service does not serve answers 404 Route not found (404001, the error catalogue)
// whatever the request's body: its media type, its syntax or its size are judged only for a route
// that exists (docs/decisions.md, A wrong URL is 404 whatever the body). The body of such a request
// is not read before the answer.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import net from 'node:net';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';

const UNKNOWN = '/api/svc/admin/v1.0/no-such-resources';
const USERS = '/api/svc/admin/v1.0/users';

const NOT_FOUND = (method: string) => ({
  errorCode: 404,
  errorMsg: 'Route not found',
  errorDetails: { method },
  errorDetailsCode: 404001,
});

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

/** Sends `head` and a first piece of a body on a new connection, then waits for an answer without finishing the body. */
function answerBeforeBody(head: string, firstPiece: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head + firstPiece));
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer before the body was complete: ${JSON.stringify(data)}`));
    }, 20_000);
    socket.on('data', (d) => {
      data += d.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(data.slice(0, end))?.[1] ?? NaN);
      const body = data.slice(end + 4);
      if (Buffer.byteLength(body, 'latin1') < length) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(data.split(' ')[1]), body });
    });
    socket.on('error', () => undefined);
  });
}

describe('a route that does not exist is 404 whatever the body', () => {
  it('a body of any media type, or of none, posted to an unknown path: 404 Route not found, not 415, 400 or 413', async () => {
    const bodies: { type?: string; payload: string }[] = [
      { type: 'text/csv', payload: 'loginEmail,firstName\na@example.com,A\n' },
      { type: 'application/xml', payload: '<user><loginEmail>a@example.com</loginEmail></user>' },
      { type: 'application/json', payload: '{"loginEmail":"a@example.com"}' },
      // Malformed JSON: before, Fastify parsed it for the not-found handler and answered 400.
      { type: 'application/json', payload: '{"loginEmail":' },
      { payload: 'some bytes without a type' },
    ];
    for (const { type, payload } of bodies) {
      for (const auth of [{}, bearer(t.superToken)]) {
        const res = await t.app.inject({
          method: 'POST',
          url: UNKNOWN,
          payload,
          headers: { ...auth, ...(type ? { 'content-type': type } : {}) },
        });
        expect(res.statusCode, `${type}: ${res.body}`).toBe(404);
        expect(res.json()).toEqual(NOT_FOUND('POST'));
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    }
  });

  it('a path that exists, with a method it does not serve, is an unknown route too: 404 whatever the body', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: USERS,
      payload: 'a,b\n',
      headers: { ...bearer(t.superToken), 'content-type': 'text/csv' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND('PATCH'));
  });

  it('an operation that exists still refuses a media type it does not take: text/csv where JSON is expected is 415', async () => {
    const res = await t.inject({
      method: 'POST',
      url: USERS,
      payload: 'loginEmail\na@example.com\n',
      headers: { ...bearer(t.superToken), 'content-type': 'text/csv' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      errorCode: 415,
      errorMsg: expect.stringContaining('Unsupported Media Type'),
      errorDetails: { mediaType: 'text/csv', accepted: ['application/json'] },
      errorDetailsCode: 415000,
    });
  });

  it('the body of a request to an unknown route is not read: a JSON body announced at 50 MB, or chunked without end, gets its 404 after the first bytes', async () => {
    const start = `POST ${UNKNOWN} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n`;
    // Before, the announced length alone gave 413 (over BODY_LIMIT_BYTES).
    const announced = await answerBeforeBody(`${start}Content-Length: ${50 * 1024 * 1024}\r\n\r\n`, '{"a":"');
    expect(announced.status).toBe(404);
    expect(JSON.parse(announced.body)).toEqual(NOT_FOUND('POST'));
    // Before, the parser waited for the end of a chunked body (or 1 MB) before answering.
    const chunked = await answerBeforeBody(`${start}Transfer-Encoding: chunked\r\n\r\n`, '6\r\n{"a":"\r\n');
    expect(chunked.status).toBe(404);
    expect(JSON.parse(chunked.body)).toEqual(NOT_FOUND('POST'));
  });

  it('the unread rest of such a body is dropped, and the kept-alive connection serves the next request', async () => {
    const answers = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${UNKNOWN} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\nContent-Length: 20\r\n\r\n0123456789`,
        );
        // The rest of the body after the 404, then a request on the same connection.
        setTimeout(
          () => socket.write('0123456789GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
          200,
        );
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('close', () => resolve(data));
      socket.on('error', () => undefined);
    });
    expect(answers.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 404', 'HTTP/1.1 200']);
    expect(answers).toContain('"errorDetailsCode":404001');
  });
});
