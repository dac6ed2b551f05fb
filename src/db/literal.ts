// Values as SQL literals, for the embedded database's EXECUTE of prepared statements (PGlite's
// API has no named statements and EXECUTE takes no bound parameters: src/db/client.ts).
// Everything here must give the statement exactly the value a bound parameter would give it
// (test/db/literal.test.ts checks that property on random values). Also the array text of a list
// of strings, bound as one parameter (textArrayLiteral: the import's logins and ids).

/** Text of one array element (PostgreSQL's array input syntax), unquoted. */
function elementText(v: unknown): string | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.toISOString();
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

/** One element of an array text, double-quoted, its quotes and backslashes escaped. */
const quotedElement = (t: string): string =>
  t.includes('"') || t.includes('\\') ? `"${t.replace(/[\\"]/g, '\\$&')}"` : `"${t}"`;

/** PostgreSQL's array text: `{"a","b",NULL,{"nested"}}`, each element double-quoted and escaped. */
function arrayText(values: readonly unknown[]): string | undefined {
  const parts: string[] = [];
  for (const v of values) {
    if (v === null || v === undefined) parts.push('NULL');
    else if (Array.isArray(v)) {
      const inner = arrayText(v);
      if (inner === undefined) return undefined;
      parts.push(inner);
    } else {
      const t = elementText(v);
      if (t === undefined) return undefined;
      parts.push(quotedElement(t));
    }
  }
  return `{${parts.join(',')}}`;
}

/**
 * PostgreSQL's array text of these strings (`{"a","b"}`), to bind as one text parameter cast to
 * `text[]`: what node-postgres writes for an array parameter, made in one pass. Its writer built
 * the text by concatenation with two replacements per element: for the thousands of logins and ids
 * of an import's batch, some 7 % of what the service allocated (docs/decisions.md, Performance,
 * "Fewer objects per import line, second pass").
 */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map(quotedElement).join(',')}}`;
}

/**
 * A value as an SQL literal of unknown type (the statement's parameter type applies to it, as to
 * a bound text parameter), or undefined when no literal can carry it: a NUL character, which
 * PostgreSQL text cannot hold (the caller then binds it and PostgreSQL refuses it as bad input),
 * or an invalid date. An escape string (E'...') is independent of standard_conforming_strings.
 */
export function sqlLiteral(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'NULL';
  const text = Array.isArray(v) ? arrayText(v) : elementText(v);
  if (text === undefined || text.includes('\0')) return undefined;
  return `E'${text.replace(/[\\']/g, '\\$&')}'`;
}

/** The literals of a statement's parameters, or undefined when one has none. */
export function sqlLiterals(params: readonly unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const p of params) {
    const l = sqlLiteral(p);
    if (l === undefined) return undefined;
    out.push(l);
  }
  return out;
}
