// emit(tx, to, stanza): an event is a row written in the caller's transaction, so it exists
// exactly when the change that causes it commits, and is delivered after the commit by the
// dispatcher. Numbers per recipient are taken under the recipient's row lock: two transactions
// writing to one recipient are numbered, and so delivered, in the order they commit.
import { sql } from 'drizzle-orm';
import type { Element } from '@xmpp/xml';
import parse from '@xmpp/xml/lib/parse.js';
import type { Executor } from '../db/client.ts';
import { newId } from '../shared/ids.ts';
import { outbox } from './outbox.tables.ts';

/** Writes one event per recipient in the transaction `tx`; returns the ids (the stanza ids). */
export async function emit(tx: Executor, to: string | readonly string[], stanza: Element): Promise<string[]> {
  const recipients = [...new Set(typeof to === 'string' ? [to] : to)];
  const ids: string[] = [];
  // The name of the event: the first child element (companysubscription, command_ended, config...).
  const kind = stanza.getChildElements()[0]?.name ?? stanza.name;
  // A copy: the caller's element is left as it was.
  const clean = parse(stanza.toString());
  delete clean.attrs.to;
  delete clean.attrs.id;
  delete clean.attrs.from;
  const text = clean.toString();
  // Always in the same order, so that two transactions emitting to the same recipients cannot deadlock.
  for (const recipient of recipients.sort()) {
    const res = await tx.execute<{ last_seq: string | number }>(sql`
      INSERT INTO outbox_recipients (recipient, last_seq) VALUES (${recipient}, 1)
      ON CONFLICT (recipient) DO UPDATE SET last_seq = outbox_recipients.last_seq + 1
      RETURNING last_seq`);
    const seq = Number((res as unknown as { rows: { last_seq: string | number }[] }).rows[0]!.last_seq);
    const id = newId();
    await tx.insert(outbox).values({ id, recipient, seq, kind, stanza: text });
    ids.push(id);
  }
  return ids;
}
