// External SIP trunks (document 2, External SIP trunk): the platform's trunks to operators,
// managed by superadmin, used by the CloudPBXs that link them (pbx_cloudpbxs.external_trunk_id).
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';

export interface LoadBalancerOptions {
  policy?: string | null;
  loadBalancerId?: string | null;
  loadBalancerHostName?: string | null;
  loadBalancerDisplayName?: string | null;
  loadBalancerDescription?: string | null;
}

export const externalTrunks = pgTable('pbx_external_trunks', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  customSipHeader1: text('custom_sip_header_1'),
  customSipHeader2: text('custom_sip_header_2'),
  peerAuthenticationRealm: text('peer_authentication_realm'),
  /** The BP companies that may use the trunk. */
  bpIds: text('bp_ids')
    .array()
    .notNull()
    .default(sql`ARRAY[]::text[]`),
  /** new, active. */
  status: text('status').notNull().default('new'),
  peeringGroupId: integer('peering_group_id'),
  resellerId: integer('reseller_id'),
  vcpInstanceId: text('vcp_instance_id').notNull(),
  /** bp_trunk, rb_trunk. */
  trunkType: text('trunk_type').notNull(),
  routeInternalCallsToPeerAllowed: boolean('route_internal_calls_to_peer_allowed').notNull().default(false),
  callForkingToPstnNumber: boolean('call_forking_to_pstn_number').notNull().default(false),
  loadBalancerOptions: jsonb('load_balancer_options').$type<LoadBalancerOptions>(),
  creationDate: ts('creation_date').notNull().defaultNow(),
});
