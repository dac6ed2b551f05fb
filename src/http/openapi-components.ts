// The document's shared parts as components: error answers, and every schema named with
// nameSchemas (src/http/schemas.ts) is moved to #/components/schemas/<name> and referenced.
// Variants that differ under one name (a format's subset carrying its source's title) get
// <name>_2, <name>_3... so that no reference ever points at another shape.
type Json = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** Schemas are compared without key order. */
function canonical(node: unknown): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(',')}]`;
  if (node && typeof node === 'object') {
    return `{${Object.keys(node as Json)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((node as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(node);
}

export function hoistNamedSchemas(doc: Json): Json {
  const components = (doc.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  const byShape = new Map<string, string>();
  for (const [name, s] of Object.entries(schemas)) byShape.set(canonical(s), name);

  const nameFor = (title: string, schema: Json): string => {
    const shape = canonical(schema);
    const known = byShape.get(shape);
    if (known) return known;
    let name = title;
    for (let i = 2; name in schemas; i++) name = `${title}_${i}`;
    schemas[name] = schema;
    byShape.set(shape, name);
    return name;
  };

  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) out[k] = walk(v);
    if (typeof out.title === 'string' && (out.type === 'object' || out.anyOf) && !('$ref' in out)) {
      return { $ref: `${REF_PREFIX}${nameFor(out.title.replace(/[^A-Za-z0-9_.-]/g, '_'), out)}` };
    }
    return out;
  };
  doc.paths = walk(doc.paths);
  hoistErrorResponses(doc);
  // Components may hold named schemas in turn (an Offer's Price).
  for (const [name, s] of Object.entries({ ...schemas })) {
    const inner = { ...(s as Json) };
    const title = inner.title;
    delete inner.title;
    const walked = walk(inner) as Json;
    schemas[name] = title === undefined ? walked : { title, ...walked };
  }
  return doc;
}

/**
 * Error answers as components.responses: the operations that give one status with the same codes
 * share one entry (`Error404`, `Error400_3`...), instead of a copy in each operation.
 */
function hoistErrorResponses(doc: Json): void {
  const responses = ((doc.components as Json).responses ??= {}) as Json;
  const byShape = new Map<string, string>();
  for (const item of Object.values((doc.paths ?? {}) as Json)) {
    for (const op of Object.values(item as Json)) {
      const answers = (op as { responses?: Json }).responses;
      if (!answers) continue;
      for (const [status, answer] of Object.entries(answers)) {
        if (Number(status) < 400 || '$ref' in (answer as Json)) continue;
        // @fastify/swagger repeats the description inside the schema.
        const a = structuredClone(answer) as { content?: Record<string, { schema?: Json }> };
        for (const c of Object.values(a.content ?? {})) delete c.schema?.description;
        const shape = canonical(a);
        let name = byShape.get(shape);
        if (!name) {
          name = `Error${status}`;
          for (let i = 2; name in responses; i++) name = `Error${status}_${i}`;
          responses[name] = a;
          byShape.set(shape, name);
        }
        answers[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
}
