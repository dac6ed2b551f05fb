// The JSON body parser: Fastify's own (secure-json-parse: prototype poisoning refused), behind a
// bound on the shape of the text. A body nested deeper than MAX_JSON_DEPTH or holding a list or
// object of more than MAX_JSON_MEMBERS members is refused with 400 before it is parsed, so no
// later step (validation, serialisation, the database driver) walks an unbounded structure: a
// customData nested 10,000 levels deep overflowed the stack when saved (docs/security.md, Input: no request
// breaks it).
// No package does this: secure-json-parse and Fastify's parser options have no depth limit.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/catalogue.ts';

/** Documents of document 1 nest a few levels; free-form objects (customData) get the rest. */
export const MAX_JSON_DEPTH = 32;
/** Above any list a schema takes (the largest, visibleBy, takes 1,000). */
export const MAX_JSON_MEMBERS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_LIST = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_LIST = 0x5d;
const COMMA = 0x2c;

/**
 * The first limit `text` passes, or undefined. One pass over the characters outside strings;
 * malformed text is left to the parser, which refuses it.
 */
export function jsonShapeProblem(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
  maxMembers = MAX_JSON_MEMBERS,
): Record<string, unknown> | undefined {
  const members: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_LIST) {
      if (members.length === maxDepth) return { reason: 'nested too deeply', maxDepth };
      members.push(1);
    } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) members.pop();
    else if (c === COMMA && members.length > 0 && ++members[members.length - 1] > maxMembers)
      return { reason: 'a list or object has too many members', maxMembers };
  }
  return undefined;
}

export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // An empty body sent as JSON (clients of the original interface do so on POST and DELETE of
    // operations that take none) is no body: an operation that needs one refuses it by its schema.
    const text = typeof body === 'string' ? body : body.toString('utf8'); // parseAs 'string': always text
    if (text.trim() === '') return done(null, undefined);
    const problem = jsonShapeProblem(text);
    if (problem) return done(new AppError('JSON_TOO_COMPLEX', problem), undefined);
    return parse(req, text, done);
  });
}
