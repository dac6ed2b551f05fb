// The operations' schemas are valid JSON Schema. Ajv no longer checks them against the meta-schema
// as the service starts (src/http/input.ts, AJV_OPTIONS: `validateSchema` off, which saves the
// meta-schema's compilation at each start): this test makes that check instead, on every schema
// of every route (body, query, parameters, headers, each answer) and on the shared ones.
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { Ajv } from 'ajv';
import { expect } from '../support/expect.ts';
import { registerAll } from '../../src/http/operation.ts';
import type { AppDeps } from '../../src/http/context.ts';
import { OPERATIONS } from '../../src/modules/index.ts';
import { ErrorSchema } from '../../src/http/schemas.ts';
import { loadConfig } from '../../src/config.ts';

/** Ajv with its default check of each schema against draft-07, as it ran before. */
const ajv = new Ajv({ strict: false });

/** The meta-schema's complaints about a schema, or undefined when it is valid. */
function complaints(schema: unknown): string | undefined {
  if (ajv.validateSchema(schema as object)) return undefined;
  return ajv.errorsText(ajv.errors);
}

async function routeSchemas(): Promise<{ where: string; schema: unknown }[]> {
  const app = Fastify();
  const found: { where: string; schema: unknown }[] = [];
  app.addHook('onRoute', (route) => {
    const s = route.schema as Record<string, unknown> | undefined;
    if (!s) return;
    const where = `${String(route.method)} ${route.url}`;
    for (const part of ['body', 'querystring', 'params', 'headers'] as const)
      if (s[part]) found.push({ where: `${where} ${part}`, schema: s[part] });
    for (const [code, schema] of Object.entries((s.response as Record<string, unknown> | undefined) ?? {}))
      found.push({ where: `${where} response ${code}`, schema });
  });
  registerAll(app, { config: loadConfig({}) } as AppDeps, OPERATIONS);
  await app.ready();
  await app.close();
  return found;
}

describe('schemas: every schema the service validates or writes with is valid JSON Schema', () => {
  it('every route schema of every operation, and the shared error schema, pass the meta-schema', async () => {
    const found = await routeSchemas();
    // Every operation has at least its answer's schema.
    expect(found.length).toBeGreaterThanOrEqual(OPERATIONS.length);
    const bad = [...found, { where: 'ErrorSchema', schema: ErrorSchema }]
      .map(({ where, schema }) => ({ where, why: complaints(schema) }))
      .filter((b) => b.why);
    expect(bad).toEqual([]);
  });

  it('the check refuses a schema that is not valid JSON Schema', () => {
    expect(complaints({ type: 'strin' })).toBeDefined();
    expect(complaints({ type: 'object', properties: { a: { minLength: -1 } } })).toBeDefined();
    expect(complaints({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
  });
});
