// The stanzas of document 1, section Events, built once here so that every module sends them
// alike. Each returns the whole stanza; to, from and id are set at delivery.
import xml, { type Element } from '@xmpp/xml';
import { scalarText } from '../shared/json-values.ts';

export const NS_CONFIGURATION = 'jabber:iq:configuration';
export const NS_PBXAGENT_CONFIG = 'urn:xmpp:pbxagent:config:1';

/** `message type="management"` with one child: the form of every management event. */
export function managementMessage(child: Element): Element {
  return xml('message', { type: 'management' }, child);
}

const text = (name: string, value: unknown) =>
  xml(name, {}, value === null || value === undefined ? '' : scalarText(value));

export interface SubscriptionChange {
  action: 'create' | 'update' | 'delete';
  subscriptionId: string;
  companyId: string;
  /** For create and update (document 1: no children for delete). */
  details?: {
    offerId: string;
    offerName: string;
    profileId: string;
    profileName: string;
    status: string;
    syncOngoing: boolean;
    maxNumberUsers: number | null;
  };
}

/** Document 1, Events, Subscription change. */
export function subscriptionChange(e: SubscriptionChange): Element {
  const children =
    e.action === 'delete' || !e.details
      ? []
      : (['offerId', 'offerName', 'profileId', 'profileName', 'status', 'syncOngoing', 'maxNumberUsers'] as const).map(
          (k) => text(k, e.details![k]),
        );
  return managementMessage(
    xml(
      'companysubscription',
      { xmlns: NS_CONFIGURATION, subscriptionId: e.subscriptionId, companyId: e.companyId, action: e.action },
      ...children,
    ),
  );
}

/** Document 1, Events, Command ended. */
export function commandEnded(commandId: string): Element {
  return managementMessage(xml('command_ended', { xmlns: NS_CONFIGURATION, commandId }));
}

/** Gateway notifications (document 1): `config` of the pbxagent namespace around one element. */
export function gatewayConfig(child: Element): Element {
  return xml('config', { xmlns: NS_PBXAGENT_CONFIG }, child);
}

/** The fields of a phone number the gateway receives on its update (document 1, Gateway notifications). */
export const PHONE_NUMBER_GATEWAY_FIELDS = [
  'shortNumber',
  'internalNumber',
  'voiceMailNumber',
  'numberE164',
  'isMonitored',
  'userId',
  'jid_im',
  'jid_tel',
  'jid_password',
] as const;
export type PhoneNumberGatewayFields = Record<(typeof PHONE_NUMBER_GATEWAY_FIELDS)[number], unknown>;

/** Document 1, Gateway notifications, phone number update: an iq the gateway acknowledges. */
export function phoneNumberUpdate(n: PhoneNumberGatewayFields): Element {
  return xml(
    'iq',
    { type: 'set' },
    gatewayConfig(xml('user', { action: 'update' }, ...PHONE_NUMBER_GATEWAY_FIELDS.map((k) => text(k, n[k])))),
  );
}

/** Document 1, Gateway notifications, system update (a message) and deletion (an iq): `pbx` with its action. */
export function systemChange(
  action: 'update' | 'delete',
  s: { id: string; pbxId: string; name: string; type: string; status: string },
): Element {
  const pbx = xml(
    'pbx',
    { action },
    text('systemId', s.id),
    text('pbxId', s.pbxId),
    ...(action === 'update' ? [text('name', s.name), text('type', s.type), text('status', s.status)] : []),
  );
  return action === 'update'
    ? xml('message', { type: 'management' }, gatewayConfig(pbx))
    : xml('iq', { type: 'set' }, gatewayConfig(pbx));
}

/**
 * What a CloudPBX's gateway is told of (issue 25, point 9): its subscribers, DDI numbers, SIP
 * devices, groups, welcome services (`ivr`) and greetings; `cloudpbx`: a setting of the CloudPBX itself the voice platform applies (its recording
 * announcement profile, issue 26, point 5).
 */
export type PbxObjectKind = 'subscriber' | 'ddi' | 'device' | 'group' | 'ivr' | 'greeting' | 'cloudpbx';

/**
 * A change of an object of a CloudPBX, for its gateway (`jid_pbxpcg`), in the form of the
 * gateway notifications of document 1: `config` of the pbxagent namespace around one element
 * named after the object, with the action as attribute and the object's fields as text children.
 * Sent through the outbox as a management message: the gateway acknowledges nothing, the change
 * is already made (docs/events.md, CloudPBX).
 */
export function pbxObjectChange(
  kind: PbxObjectKind,
  action: 'create' | 'update' | 'delete',
  fields: Record<string, unknown>,
): Element {
  return managementMessage(gatewayConfig(xml(kind, { action }, ...Object.entries(fields).map(([k, v]) => text(k, v)))));
}
