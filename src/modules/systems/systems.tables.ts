// Tables of the systems module: telephone systems (document 3, Systems and sites) and the phone
// numbers they report (document 3, Phone numbers of a system).
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import { sites } from '../admin/sites/sites.tables.ts';
import type { ConnectionEventType, SearchSource, SystemStatus, SystemType, Translator } from './systems.schemas.ts';

export const systems = pgTable(
  'systems',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    pbxId: text('pbx_id').notNull(),
    country: text('country'),
    version: text('version'),
    type: text('type').$type<SystemType>().notNull().default('undefined'),
    status: text('status').$type<SystemStatus>().notNull().default('created'),
    // The company the system was created for (the company of its first site): its administrators
    // (and their BP and organisation) manage it; decisions "Telephone systems".
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    // The first of its linked sites, whose site_admin sees it (null when it has none).
    siteId: text('site_id').references(() => sites.id),
    // Every site linked to the system (document 3: a system can be shared by several sites).
    siteIds: text('site_ids')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    bpId: text('bp_id'),
    jidPbxagent: text('jid_pbxagent').notNull(),
    jidPbxagentPassword: text('jid_pbxagent_password').notNull(),
    jidPbxpcg: text('jid_pbxpcg').notNull(),
    jidPbxpcgPassword: text('jid_pbxpcg_password').notNull(),
    serverPingTimeout: integer('server_ping_timeout').notNull().default(120),
    pbxMainBundlePrefix: text('pbx_main_bundle_prefix')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    usePbxMainBundlePrefix: boolean('use_pbx_main_bundle_prefix').notNull().default(false),
    pbxNationalPrefix: text('pbx_national_prefix'),
    pbxInternationalPrefix: text('pbx_international_prefix'),
    pbxNumberingTranslator: jsonb('pbx_numbering_translator')
      .$type<Translator[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    hasMediaPillar: boolean('has_media_pillar').notNull().default(false),
    isShared: boolean('is_shared').notNull().default(false),
    isCentrex: boolean('is_centrex').notNull().default(false),
    isOxoManaged: boolean('is_oxo_managed').notNull().default(false),
    searchResultOrder: text('search_result_order')
      .array()
      .$type<SearchSource[]>()
      .notNull()
      .default(sql`ARRAY['SVC','LDAP','PBX']::text[]`),
    activatingTransactionId: text('activating_transaction_id'),
    jidPbxagentPasswordActivating: text('jid_pbxagent_password_activating'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    statusUpdatedDate: ts('status_updated_date').notNull().defaultNow(),
  },
  (t) => [
    index('systems_company_idx').on(t.companyId),
    index('systems_site_idx').on(t.siteId),
    index('systems_site_ids_idx').using('gin', t.siteIds),
    uniqueIndex('systems_jid_pbxagent_uq').on(t.jidPbxagent),
    uniqueIndex('systems_jid_pbxpcg_uq').on(t.jidPbxpcg),
  ],
);

/**
 * The logins and logouts of a system's gateway (`jid_pbxpcg`) on the XMPP server, as its presence
 * to the service's component shows them (docs/decisions.md, "Connection history"): the System's
 * `connectionHistory`. Only the last CONNECTION_HISTORY_LIMIT of a system are kept.
 */
export const systemConnectionEvents = pgTable(
  'system_connection_events',
  {
    systemId: text('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    /** The event's number for its system, in the order received (two events can share a date). */
    seq: integer('seq').notNull(),
    /** LOGIN or LOGOUT. */
    eventType: text('event_type').$type<ConnectionEventType>().notNull(),
    eventDate: ts('event_date').notNull(),
  },
  (t) => [primaryKey({ columns: [t.systemId, t.seq] })],
);
