// The document's shared parts as components: error answers, and every schema named with
// nameSchemas (src/http/schemas.ts) is moved to #/components/schemas/<name> and referenced.
// Variants that differ under one name (a format's subset carrying its source's title) get
// <name>_2, <name>_3... so that no reference ever points at another shape.
import { field, isRecord } from '../shared/json-values.ts';

type Json = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** Schemas are compared without key order. */
function canonical(node: unknown): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(',')}]`;
  if (isRecord(node)) {
    return `{${Object.keys(node)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(node[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(node);
}

/** The object under `key` of a part of the document, added empty when there is none. */
function objectAt(parent: Json, key: string): Json {
  const found = parent[key];
  if (isRecord(found)) return found;
  if (found !== undefined && found !== null) throw new Error(`the document's ${key} is not an object`);
  const made: Json = {};
  parent[key] = made;
  return made;
}

export function hoistNamedSchemas(doc: Json): Json {
  const components = objectAt(doc, 'components');
  const schemas = objectAt(components, 'schemas');
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
    return isRecord(node) ? walkObject(node) : node;
  };
  const walkObject = (node: Json): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    if (typeof out.title === 'string' && (out.type === 'object' || out.anyOf) && !('$ref' in out)) {
      return { $ref: `${REF_PREFIX}${nameFor(out.title.replace(/[^A-Za-z0-9_.-]/g, '_'), out)}` };
    }
    return out;
  };
  doc.paths = walk(doc.paths);
  hoistErrorResponses(doc);
  // Components may hold named schemas in turn (an Offer's Price).
  for (const [name, s] of Object.entries({ ...schemas })) {
    if (!isRecord(s)) continue;
    const inner = { ...s };
    const title = inner.title;
    delete inner.title;
    const walked = walkObject(inner);
    schemas[name] = title === undefined ? walked : { title, ...walked };
  }
  return doc;
}

/**
 * Error answers as components.responses: the operations that give one status with the same codes
 * share one entry (`Error404`, `Error400_3`...), instead of a copy in each operation.
 */
function hoistErrorResponses(doc: Json): void {
  const responses = objectAt(objectAt(doc, 'components'), 'responses');
  const byShape = new Map<string, string>();
  for (const item of Object.values(isRecord(doc.paths) ? doc.paths : {})) {
    if (!isRecord(item)) continue;
    for (const op of Object.values(item)) {
      const answers = field(op, 'responses');
      if (!isRecord(answers)) continue;
      for (const [status, answer] of Object.entries(answers)) {
        if (Number(status) < 400 || !isRecord(answer) || '$ref' in answer) continue;
        // @fastify/swagger repeats the description inside the schema.
        const a = structuredClone(answer);
        const content = a.content;
        if (isRecord(content))
          for (const c of Object.values(content)) {
            const schema = field(c, 'schema');
            if (isRecord(schema)) delete schema.description;
          }
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
