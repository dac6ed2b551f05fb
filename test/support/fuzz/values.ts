// The malformed values the fuzz test draws from, and the seeded random source it draws with.
// Values are kept as text (JSON text for bodies, raw percent-encoded text for URLs) so that
// depths and sizes a JavaScript value could not be built or serialised with still go out.

/** FNV-1a: the seed of one operation, from the run's seed and the operation's id. */
export function hashSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and the same on every platform, which is all a reproducible run needs. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)] };
}

const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** Strings that break parsers, databases, encodings and templates. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-1',
  '1e999',
  'NaN',
  'Infinity',
  '-0',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u0003\u001f\u007f',
  '\r\n',
  '\t',
  '\u2028\u2029',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff\ud800',
  '😀',
  'Ω≈ç√',
  "' OR '1'='1' --",
  '"; DROP TABLE companies; --',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%00',
  '%s%s%n',
  '${7*7}',
  '{{7*7}}',
  '[object Object]',
  '__proto__',
  'constructor',
  '2026-02-30T25:61:61Z',
  '0x1F',
  '00000000000000000000000000000000',
  'x'.repeat(65),
  'x'.repeat(300),
  'é'.repeat(2000),
  'x'.repeat(70_000),
];

/** JSON texts of wrong types, nulls, extremes and prototype keys. */
export const NASTY_TYPES: readonly string[] = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e308',
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '9007199254740993',
  '""',
  '"true"',
  '"12"',
  '[]',
  '{}',
  '[null]',
  '["x"]',
  '[["x"]]',
  '[1,2,3]',
  '[{}]',
  '{"a":null}',
  '{"":""}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

/** JSON texts of huge and deep values. */
export const NASTY_SIZES: readonly string[] = [
  deepObject(31),
  deepObject(40),
  deepObject(1000),
  deepObject(10_000),
  deepArray(40),
  deepArray(10_000),
  `[${Array.from({ length: 1001 }, () => '"x"').join(',')}]`,
  `[${Array.from({ length: 20_000 }, () => '1').join(',')}]`,
  `{${Array.from({ length: 101 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  `{"${'k'.repeat(1000)}":1}`,
];

/** JSON texts of every kind, drawn a third from each family. */
export const NASTY_JSON: readonly (readonly string[])[] = [
  NASTY_TYPES,
  NASTY_SIZES,
  NASTY_STRINGS.map((s) => JSON.stringify(s)),
];

/** Whole bodies that are not the JSON an operation takes. */
export const NASTY_BODIES: readonly (string | Buffer)[] = [
  '',
  ' ',
  '{',
  '{"a":',
  '}',
  'nul',
  'null',
  '[]',
  '[{}]',
  '"text"',
  '123',
  'true',
  '{}x',
  '{"a":1}{"b":2}',
  "{'a':1}",
  '{"a":1,}',
  '{a:1}',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  `{"a":"${'\\'.repeat(3)}"}`,
  deepArray(10_000),
  deepObject(10_000),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xbf]),
  Buffer.alloc(64, 0),
  JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
];

/** A string as a query or path value: percent-encoded, or raw bytes when it cannot be (a lone surrogate). */
export function urlText(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** Raw URL texts no encoder makes: broken escapes, overlong UTF-8, separators. */
export const RAW_URL_TEXTS: readonly string[] = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%FF%FE',
  '%C0%AE',
  '%C0%80',
  '%00',
  '%0A',
  '+',
  '%2F',
  '%2E%2E',
  '..',
  '.',
  ';',
  ',',
  '*',
  '~',
  '%25',
  '%23',
  '%3F',
];

/**
 * Values for path parameters. Not the dot segments (`..`, `%2E%2E`): the in-process client, like
 * browsers and curl, resolves them, and the request would go to another operation.
 */
export const PATH_VALUES: readonly string[] = [
  ...RAW_URL_TEXTS.filter((v) => !['.', '..', '%2E%2E'].includes(v)),
  'a%00b',
  '%20',
  '%01',
  '%F0%9F%98%80',
  urlText("' OR 1=1--"),
  'null',
  'undefined',
  '-1',
  '0',
  '1e999',
  '%5Bobject%20Object%5D',
  'x'.repeat(65),
  'x'.repeat(101),
  'x'.repeat(600),
  '0123456789abcdef01234567',
  'ffffffffffffffffffffffff',
  'ZZZZZZZZZZZZZZZZZZZZZZZZ',
  urlText('é'.repeat(40)),
];

/** Values for query parameters. */
export const QUERY_VALUES: readonly string[] = [
  ...RAW_URL_TEXTS,
  ...NASTY_STRINGS.map(urlText),
  '1e309',
  '-99999999999999999999',
  '99999999999999999999',
  '0.5',
  '0x10',
  '%205',
  '5%20',
  '-0',
  '1,2',
  '[1]',
  '{}',
];

export const CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=zz',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/JSON',
  'application/json, text/plain',
  'application/json;;;',
  'image/png',
  'image/gif',
  'application/octet-stream',
  'a/b/c',
  '*/*',
  ';',
  `application/${'x'.repeat(2000)}`,
  'application/json; boundary="',
  'application/vnd.api+json',
];
