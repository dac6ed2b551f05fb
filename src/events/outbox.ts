// emit(tx, to, stanza): an event is a row written in the caller's transaction, so it exists
// exactly when the change that causes it commits, and is delivered after the commit by the
// dispatcher. Numbers per recipient are taken under the recipient's row lock: two transactions
// writing to one recipient are numbered, and so delivered, in the order they commit.
import { sql } from 'drizzle-orm';
import type { Element } from '@xmpp/xml';
import type { Executor } from '../db/client.ts';
import { newId } from '../shared/ids.ts';
import { statement } from '../db/raw.ts';

/** Writes one event per recipient in the transaction `tx`; returns the ids (the stanza ids). */
export async function emit(tx: Executor, to: string | readonly string[], stanza: Element): Promise<string[]> {
  const recipients = [...new Set(typeof to === 'string' ? [to] : to)].sort();
  if (recipients.length === 0) return [];
  // The name of the event: the first child element (companysubscription, command_ended, config...).
  const kind = stanza.getChildElements()[0]?.name ?? stanza.name;
  // Without to, id and from (set at delivery); the caller's element is given back as it was.
  const text = withoutAddressing(stanza);
  const ids = recipients.map(() => newId());
  // One statement for every recipient: the recipients' rows stay locked from here to the commit,
  // so the statement comes last in the caller's transaction and is one round trip, not two per
  // recipient (each round trip adds the process's own latency to the time others wait).
  // Taken in the recipients' order, so that two transactions emitting to the same recipients
  // cannot deadlock.
  await EMIT.rows(tx, { recipients, ids, kind, text });
  return ids;
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

const EMIT = statement<'recipients' | 'ids' | 'kind' | 'text'>(sql`
    WITH input AS (SELECT * FROM unnest(${sql.placeholder('recipients')}::text[], ${sql.placeholder('ids')}::text[]) AS t(recipient, id)),
    numbered AS (
      INSERT INTO outbox_recipients (recipient, last_seq)
      SELECT recipient, 1 FROM input ORDER BY recipient
      ON CONFLICT (recipient) DO UPDATE SET last_seq = outbox_recipients.last_seq + 1
      RETURNING recipient, last_seq)
    INSERT INTO outbox (id, recipient, seq, kind, stanza)
    SELECT input.id, numbered.recipient, numbered.last_seq, ${sql.placeholder('kind')}, ${sql.placeholder('text')} FROM numbered JOIN input USING (recipient)`);
