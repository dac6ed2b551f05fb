// emit(tx, to, stanza): an event is a row written in the caller's transaction, so it exists
// exactly when the change that causes it commits, and is delivered after the commit by the
// dispatcher. Numbers per recipient are taken under the recipient's row lock: two transactions
// writing to one recipient are numbered, and so delivered, in the order they commit.
import { sql, type SQL } from 'drizzle-orm';
import type { Element } from '@xmpp/xml';
import type { Executor } from '../db/client.ts';
import { newId } from '../shared/ids.ts';
import { statement } from '../db/raw.ts';

/** The values of the outbox statement for one event to its recipients (undefined: nobody to tell). */
function eventOf(to: string | readonly string[], stanza: Element) {
  const recipients = [...new Set(typeof to === 'string' ? [to] : to)].sort();
  if (recipients.length === 0) return undefined;
  // The name of the event: the first child element (companysubscription, command_ended, config...).
  const kind = stanza.getChildElements()[0]?.name ?? stanza.name;
  // Without to, id and from (set at delivery); the caller's element is given back as it was.
  const text = withoutAddressing(stanza);
  const ids = recipients.map(() => newId());
  return { recipients, ids, kind, text };
}

/** Writes one event per recipient in the transaction `tx`; returns the ids (the stanza ids). */
export async function emit(tx: Executor, to: string | readonly string[], stanza: Element): Promise<string[]> {
  const event = eventOf(to, stanza);
  if (!event) return [];
  // One statement for every recipient: the recipients' rows stay locked from here to the commit,
  // so the statement comes last in the caller's transaction and is one round trip, not two per
  // recipient (each round trip adds the process's own latency to the time others wait).
  // Taken in the recipients' order, so that two transactions emitting to the same recipients
  // cannot deadlock.
  await EMIT.rows(tx, event);
  return event.ids;
}

/**
 * A change and its event in one statement (one round trip, one commit, no transaction to open):
 * `change` is a data-modifying statement, written with `sql.placeholder` for its values; the
 * event is written only when it touched a row. Returns whether it did. The recipients' rows are
 * locked after the change's, as `emit` at the end of a transaction locks them.
 */
export function emitAfter<P extends string>(
  change: SQL,
): (exec: Executor, values: Record<P, unknown>, to: readonly string[], stanza: Element) => Promise<boolean> {
  const st = statement<
    P | 'recipients' | 'ids' | 'kind' | 'text'
  >(sql`WITH change AS (${change}), ${eventSql(sql`WHERE EXISTS (SELECT 1 FROM change)`)},
    written AS (INSERT INTO outbox (id, recipient, seq, kind, stanza)
      SELECT input.id, numbered.recipient, numbered.last_seq, ${sql.placeholder('kind')}, ${sql.placeholder('text')} FROM numbered JOIN input USING (recipient) RETURNING 1)
    SELECT (SELECT count(*) FROM change)::int AS changed, (SELECT count(*) FROM written)::int AS written`);
  return async (exec, values, to, stanza) => {
    const event = eventOf(to, stanza) ?? { recipients: [], ids: [], kind: '', text: '' };
    const [row] = await st.rows<{ changed: number }>(exec, { ...values, ...event });
    return (row?.changed ?? 0) > 0;
  };
}

/** The stanza's text without the root's to, id and from: removed for the serialisation, then put back. */
function withoutAddressing(stanza: Element): string {
  const saved: [string, (typeof stanza.attrs)[string]][] = [];
  for (const a of ['to', 'id', 'from']) {
    if (!(a in stanza.attrs)) continue;
    saved.push([a, stanza.attrs[a]]);
    delete stanza.attrs[a];
  }
  try {
    return stanza.toString();
  } finally {
    for (const [a, v] of saved) stanza.attrs[a] = v;
  }
}

/** The recipients of an event (`input`, filtered by `where`) and their next numbers (`numbered`), as CTEs. */
const eventSql = (
  where: SQL,
) => sql`input AS (SELECT * FROM unnest(${sql.placeholder('recipients')}::text[], ${sql.placeholder('ids')}::text[]) AS t(recipient, id) ${where}),
    numbered AS (
      INSERT INTO outbox_recipients (recipient, last_seq)
      SELECT recipient, 1 FROM input ORDER BY recipient
      ON CONFLICT (recipient) DO UPDATE SET last_seq = outbox_recipients.last_seq + 1
      RETURNING recipient, last_seq)`;

const EMIT = statement<'recipients' | 'ids' | 'kind' | 'text'>(sql`WITH ${eventSql(sql``)}
    INSERT INTO outbox (id, recipient, seq, kind, stanza)
    SELECT input.id, numbered.recipient, numbered.last_seq, ${sql.placeholder('kind')}, ${sql.placeholder('text')} FROM numbered JOIN input USING (recipient)`);
