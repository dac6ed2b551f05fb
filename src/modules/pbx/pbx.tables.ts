// Tables of the pbx module (document 2, CloudPBX). A CloudPBX is a telephone system of type
// `cloud_pbx` (the systems module's row: name, company, sites, XMPP accounts, status); its own
// settings live here, one row per PBX keyed by the system's id. The row copies neither the
// company nor the site: the relations read them on the system (its parent kind).
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { systems } from '../systems/systems.tables.ts';
import { externalTrunks } from './trunks.tables.ts';
import type {
  BarringOptions,
  CallForkingToPstnNumber,
  CallForwardOptions,
  CliOptions,
  EmergencyOptions,
  Language,
  OverflowOptions,
  StoredPeerAuthentication,
} from './pbx.schemas.ts';
import type { CustomNumberPattern } from './options.schemas.ts';

export const cloudPbxs = pgTable('pbx_cloudpbxs', {
  /** The id of the CloudPBX's system (`systemId` of the paths); the PBX goes with it. */
  id: text('id')
    .primaryKey()
    .references(() => systems.id, { onDelete: 'cascade' }),
  /** The voice platform instance hosting it, chosen from the company's country (pbx.instances.ts). */
  vcpInstanceId: text('vcp_instance_id').notNull(),
  /** The tenant of the company on the voice platform (ports.voice), made and deleted with the PBX. */
  vcpTenantId: text('vcp_tenant_id').notNull(),
  language: text('language').$type<Language>().notNull().default('en'),
  /** Prefixes of the internal numbers: a prefix p with d digits allows p0…0 to p9…9 (d digits after p). */
  numberingPrefixes: text('numbering_prefixes')
    .array()
    .notNull()
    .default(sql`ARRAY[]::text[]`),
  numberingDigits: integer('numbering_digits'),
  outgoingPrefix: text('outgoing_prefix'),
  customSipHeader1: text('custom_sip_header_1'),
  customSipHeader2: text('custom_sip_header_2'),
  overflow: jsonb('overflow')
    .$type<OverflowOptions>()
    .notNull()
    .default(sql`'{"activate":false,"noReplyDelay":20,"activateUnavailableOverflow":false}'::jsonb`),
  barringOptions: jsonb('barring_options')
    .$type<BarringOptions>()
    .notNull()
    .default(sql`'{"permissions":"int_nat_local","restrictions":"no_restriction"}'::jsonb`),
  cliOptions: jsonb('cli_options')
    .$type<CliOptions>()
    .notNull()
    .default(
      sql`'{"policy":"installation_ddi_number","userCanManageItsCli":false,"companyNumberCanBeSelectedByUserAsCli":false}'::jsonb`,
    ),
  emergencyOptions: jsonb('emergency_options')
    .$type<EmergencyOptions>()
    .notNull()
    .default(sql`'{"callAuthorizationWithSoftPhone":false,"emergencyGroupActivated":false}'::jsonb`),
  callForwardOptions: jsonb('call_forward_options')
    .$type<CallForwardOptions>()
    .notNull()
    .default(sql`'{"externalCallForward":"authorized"}'::jsonb`),
  /** The peer authentication; its password sealed with the server's key (docs/decisions.md), never answered in the CloudPBX. */
  peerAuthenticationOptions: jsonb('peer_authentication_options').$type<StoredPeerAuthentication>(),
  /** The restriction `custom_numbers`: the dialled numbers it bars, as regular expressions. */
  customNumbersRestriction: jsonb('custom_numbers_restriction')
    .$type<CustomNumberPattern[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  allowCloudPbxRecording: boolean('allow_cloudpbx_recording').notNull().default(false),
  /** Document 2, set recording announcement profile: all, external_only, internal_only, none. */
  announcementProfile: text('announcement_profile').notNull().default('none'),
  routeInternalCallsToPeer: boolean('route_internal_calls_to_peer').notNull().default(false),
  callForkingToPstnNumber: text('call_forking_to_pstn_number')
    .$type<CallForkingToPstnNumber>()
    .notNull()
    .default('not_available'),
  monolineIncomingMode: boolean('monoline_incoming_mode').notNull().default(false),
  emulatedRingBackTone: boolean('emulated_ring_back_tone').notNull().default(false),
  /** The external trunk it uses (document 2, update CloudPBX); a linked trunk cannot be deleted. */
  externalTrunkId: text('external_trunk_id').references(() => externalTrunks.id, { onDelete: 'restrict' }),
  installationNumber: text('installation_number'),
  installationNumberId: text('installation_number_id'),
  domainName: text('domain_name'),
  /**
   * When a delete claimed the CloudPBX (it then deletes the tenant on the voice platform, then the
   * rows): a second delete meanwhile finds nothing (404). A claim older than a minute is an
   * attempt that died on the way, and may be taken again.
   */
  deletingSince: ts('deleting_since'),
});
