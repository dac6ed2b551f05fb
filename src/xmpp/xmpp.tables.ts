// Tables of the XMPP transport: requests awaiting a reply (shared by every instance, so that a
// reply received by one instance reaches the one that asked) and the service settings the
// database itself reads (the users' JID domain, for the jid_im of new users).
import { pgTable, text, timestamp, index } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const xmppRequests = pgTable(
  'xmpp_requests',
  {
    /** Also the iq's id. */
    id: text('id').primaryKey(),
    recipient: text('recipient').notNull(),
    /** The iq as XML (type, payload), without to/from/id. */
    stanza: text('stanza').notNull(),
    /** pending (not sent yet), sent, result, error, timeout. */
    state: text('state').notNull().default('pending'),
    reply: text('reply'),
    /** The instance that asked, and the one that sent it. */
    askedBy: text('asked_by').notNull(),
    sentBy: text('sent_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deadline: ts('deadline').notNull(),
    answeredAt: ts('answered_at'),
  },
  (t) => [index('xmpp_requests_state_idx').on(t.state, t.createdAt)],
);

/** Settings the database reads itself (a trigger fills users.jid_im from `xmpp_user_domain`). */
export const serviceSettings = pgTable('service_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
