// An example for every JSON request body and success answer of the document,
// made from the schema itself so that it can never drift from it: realistic values chosen by the
// field's name and format (a company's name, an email, a country code, a price), the first value
// of an enumeration, the bounds of a number. test/openapi.test.ts validates every example against
// its schema.
import { field, isRecord, texts } from '../shared/json-values.ts';

type Json = Record<string, unknown>;

const BY_NAME: Array<[RegExp, unknown]> = [
  [/^(loginEmail|email|adminEmail|.*Email)$/, 'jane.doe@example.com'],
  [/^firstName$/, 'Jane'],
  [/^lastName$/, 'Doe'],
  [/^(displayName|fullName)$/, 'Jane Doe'],
  [/^(companyName|name)$/, 'Acme Telecom'],
  [/^(country|countryCode)$/, 'FRA'],
  [/^currency$/, 'EUR'],
  [/^amount$/, '19.90'],
  [/^(language|lang)$/, 'en'],
  [/^timezone$/, 'Europe/Paris'],
  [/^password$/, 'Choose-a-passw0rd'],
  [/ApplicantNumber$/, 'BP-2026-0042'],
  [/^(phoneNumber|number|callNumber|companyCallNumber|e164Number|tenantCallNumber)$/, '+33123456789'],
  [/^(description|technicalDescription)$/, 'Head office and its call center'],
  [/^(street|address)$/, '12 rue de la Paix'],
  [/^city$/, 'Paris'],
  [/^(zipCode|postalCode)$/, '75002'],
  [
    /^token$|Token$|^access_token$|^refresh_token$/,
    'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiI1ZjFjMmE5ZThiN2Q2YzVhNGIzZTJmMTAifQ.c2lnbmF0dXJl',
  ],
  [/^(id|.*Id)$/, '5f1c2a9e8b7d6c5a4b3e2f10'],
];

const BY_FORMAT: Record<string, string> = {
  'date-time': '2026-06-15T09:30:00.000Z',
  date: '2026-06-15',
  email: 'jane.doe@example.com',
  uri: 'https://portal.example.com/callback',
  url: 'https://portal.example.com/callback',
  uuid: '3f8a2c1e-5b7d-4e9f-8a6b-1c2d3e4f5a6b',
  hostname: 'pbx.example.com',
  ipv4: '192.0.2.10',
};

/** The schema a node is, its references followed (`#/components/schemas/...`); `{}` for anything else. */
function resolve(doc: Json, node: unknown): Json {
  let cur = node;
  for (let i = 0; i < 10; i++) {
    const ref = field(cur, '$ref');
    if (typeof ref !== 'string') break;
    cur = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => field(o, k), doc);
  }
  return isRecord(cur) ? cur : {};
}

function fits(schema: Json, value: unknown): boolean {
  if (typeof value !== 'string') return true;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
  return true;
}

export function exampleOf(doc: Json, node: unknown, name = '', depth = 0): unknown {
  const s = resolve(doc, node);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((x) => exampleOf(doc, x, name, depth)));
  const union = s.anyOf ?? s.oneOf;
  if (Array.isArray(union)) {
    const choice: unknown = union.find((x) => resolve(doc, x).type !== 'null') ?? union[0];
    return exampleOf(doc, choice, name, depth);
  }
  const type = Array.isArray(s.type) ? texts(s.type).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      if (depth > 6) return out;
      for (const [k, v] of Object.entries(isRecord(s.properties) ? s.properties : {}))
        out[k] = exampleOf(doc, v, k, depth + 1);
      return out;
    }
    case 'array': {
      if (depth > 6 || s.maxItems === 0 || field(s.items, 'not')) return [];
      const n = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1);
      return Array.from({ length: n }, () => exampleOf(doc, s.items, name.replace(/s$/, ''), depth + 1));
    }
    case 'integer':
    case 'number': {
      if (/^(limit)$/.test(name)) return 100;
      if (/^(offset)$/.test(name)) return 0;
      const min =
        typeof s.minimum === 'number'
          ? s.minimum
          : typeof s.exclusiveMinimum === 'number'
            ? s.exclusiveMinimum + 1
            : undefined;
      const max = typeof s.maximum === 'number' ? s.maximum : undefined;
      const guess = /max|Number|total|count|nb/i.test(name) ? 25 : 1;
      return Math.min(max ?? Infinity, Math.max(min ?? -Infinity, guess));
    }
    case 'boolean':
      return /^(is|has|can|allow|enabled|active)/.test(name) || name === 'isActive';
    case 'string': {
      const byFormat = typeof s.format === 'string' ? BY_FORMAT[s.format] : undefined;
      if (byFormat && fits(s, byFormat)) return byFormat;
      const byName = BY_NAME.find(([re]) => re.test(name))?.[1];
      if (byName !== undefined && fits(s, byName)) return byName;
      const plain = 'example';
      if (fits(s, plain)) return plain;
      const len = typeof s.minLength === 'number' ? s.minLength : 1;
      return 'x'.repeat(Math.min(len, typeof s.maxLength === 'number' ? s.maxLength : len));
    }
    default:
      return {};
  }
}

const JSON_TYPE = 'application/json';

/** Adds an example to every JSON request body and success answer that has none. */
export function addExamples(doc: Json): Json {
  for (const item of Object.values(isRecord(doc.paths) ? doc.paths : {})) {
    for (const op of Object.values(isRecord(item) ? item : {})) {
      const body = field(field(field(op, 'requestBody'), 'content'), JSON_TYPE);
      if (isRecord(body) && body.schema && body.example === undefined) body.example = exampleOf(doc, body.schema);
      const responses = field(op, 'responses');
      for (const [status, answer] of Object.entries(isRecord(responses) ? responses : {})) {
        if (!/^2/.test(status)) continue;
        const media = field(field(answer, 'content'), JSON_TYPE);
        if (isRecord(media) && media.schema && media.example === undefined)
          media.example = exampleOf(doc, media.schema);
      }
    }
  }
  return doc;
}
