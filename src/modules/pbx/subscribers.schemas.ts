// Schemas of the subscribers of a CloudPBX and of its numbering plan (document 2, Subscribers,
// Numbering plan, "Operations whose method and path are not given"; routes.md, CloudPBX).
import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { optionalPageQuery, pagingQuery } from '../../http/paging.ts';
import { BARRING_PERMISSIONS, BARRING_RESTRICTIONS } from './options.data.ts';

/** Document 2: a subscriber's barring ids (restriction `default`: the CloudPBX's own). */
export const SUBSCRIBER_PERMISSIONS = BARRING_PERMISSIONS.map((o) => o.id);
export const SUBSCRIBER_RESTRICTIONS = [...BARRING_RESTRICTIONS.map((o) => o.id), 'default' as const];
/** Document 2, update subscriber external call forward. */
export const SUBSCRIBER_CALL_FORWARD = ['company_policy', 'authorized', 'not_authorized'] as const;
/** Document 2, update subscriber overflow: busy/no-reply and unavailable overflow. */
export const OVERFLOW_VALUES = ['default', 'custom', 'disabled'] as const;
/** Document 2, Recording: the recording profiles. */
export const RECORDING_PROFILES = ['all', 'external_only', 'internal_only', 'none'] as const;
export const SUBSCRIBER_SORT_FIELDS = ['shortNumber', 'creationDate'] as const;

export type SubscriberPermission = (typeof SUBSCRIBER_PERMISSIONS)[number];
export type SubscriberRestriction = (typeof SUBSCRIBER_RESTRICTIONS)[number];

const SipHeader = Nullable(Type.String({ maxLength: 255 }));
const NoReplyDelay = Type.Integer({ minimum: 10, maximum: 60, description: 'seconds, 10 to 60' });

export const SipHeaders = Obj({ customSipHeader_1: SipHeader, customSipHeader_2: SipHeader });
export const Barring = Obj({
  permissions: OneOf(SUBSCRIBER_PERMISSIONS),
  restrictions: OneOf(SUBSCRIBER_RESTRICTIONS, { description: '`default`: the CloudPBX’s restriction' }),
});
export const CallForward = Obj({ externalCallForward: OneOf(SUBSCRIBER_CALL_FORWARD) });
export const Overflow = Obj({
  value: OneOf(OVERFLOW_VALUES),
  activate: Type.Boolean({ description: 'value is not `disabled`' }),
  unavailableOverflow: OneOf(OVERFLOW_VALUES),
  noReplyDelay: Type.Integer(),
});
export const Recording = Obj({ recordingProfile: OneOf(RECORDING_PROFILES) });

/** A subscriber of a CloudPBX: a user of its company with a short number of its numbering plan. */
export const Subscriber = Obj(
  {
    id: Id('the subscriber’s phoneNumberId'),
    phoneNumberId: Id('its id'),
    systemId: Id('its CloudPBX'),
    userId: Id(),
    userDisplayName: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    loginEmail: Type.String(),
    shortNumber: Type.String(),
    customSipHeader_1: SipHeader,
    customSipHeader_2: SipHeader,
    barringOptions: Barring,
    callForwardOptions: CallForward,
    overflow: Overflow,
    recordingProfile: OneOf(RECORDING_PROFILES),
    creationDate: DateTime(),
    devices: Type.Array(Id(), { description: 'the ids of the SIP devices assigned to it' }),
  },
  { description: 'a subscriber of a CloudPBX (its id is its phoneNumberId)' },
);

export const SubscriberParams = Type.Object({ systemId: Id(), phoneNumberId: Id() });

export const CreateSubscriberBody = Obj({
  userId: Id('a user of the CloudPBX’s company, holding a licence of a subscription other than the default offer'),
  shortNumber: Type.Union([Type.String({ minLength: 1, maxLength: 20 }), Type.Integer({ minimum: 0 })], {
    description: 'a free number of the numbering plan (a number is read as its digits)',
  }),
});

export const ListSubscribersQuery = Type.Object({
  ...pagingQuery(SUBSCRIBER_SORT_FIELDS, 'shortNumber'),
  // Issue 28: choosing a subscriber among thousands (a group's members, a key's target) needs
  // the service to search; pickers otherwise see only a first page.
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description:
        '(+) digits: the subscribers whose internal number starts with them; any other text: those whose user’s display name contains it (case-insensitive)',
    }),
  ),
});

export const UpdateSipHeadersBody = Obj({
  customSipHeader_1: Type.Optional(SipHeader),
  customSipHeader_2: Type.Optional(SipHeader),
});

/** A barring id: one id, or an array of one (clients of the original interface send both). */
const oneId = <T extends string>(values: readonly T[]) =>
  Type.Union([OneOf(values), Type.Array(OneOf(values), { minItems: 1, maxItems: 1 })]);

export const UpdateBarringBody = Obj({
  permissions: Type.Optional(oneId(SUBSCRIBER_PERMISSIONS)),
  restrictions: Type.Optional(oneId(SUBSCRIBER_RESTRICTIONS)),
});
export const UpdateCallForwardBody = Obj({ externalCallForward: OneOf(SUBSCRIBER_CALL_FORWARD) });
export const UpdateOverflowBody = Obj({
  value: OneOf(OVERFLOW_VALUES, { description: 'busy and no-reply overflow' }),
  unavailableOverflow: OneOf(OVERFLOW_VALUES),
  noReplyDelay: Type.Optional(NoReplyDelay),
});
export const SetRecordingBody = Obj({ recordingProfile: OneOf(RECORDING_PROFILES) });

export type CreateSubscriberInput = Static<typeof CreateSubscriberBody>;

// The numbering plan (document 2, Numbering plan) and the free internal numbers.
const Range = Obj({ first: Type.Integer(), last: Type.Integer() });
export const NumberingPlan = Obj({
  ranges: Type.Array(Range, { description: 'one per prefix: the prefix followed by numberingDigits digits' }),
  allocatedNumbers: Obj({
    subscribers: Type.Array(Obj({ shortNumber: Type.String(), userId: Type.String(), userDisplayName: Type.String() })),
    groups: Type.Array(
      Obj({ vcpGroupId: Type.String(), groupName: Type.String(), type: Type.String(), shortNumber: Type.String() }),
      { description: 'the groups holding a short number (vcpGroupId: the group’s id)' },
    ),
    devices: Type.Array(
      Obj({
        shortNumber: Type.String(),
        userId: Type.String(),
        macAddress: Nullable(Type.String()),
        userDisplayName: Type.String(),
      }),
      { description: 'the SIP devices assigned to subscribers, with their subscriber’s number' },
    ),
  }),
  allocatedTotals: Type.Optional(
    Obj(
      { subscribers: Type.Integer(), groups: Type.Integer(), devices: Type.Integer() },
      { description: '(+) with limit or offset: how many numbers each list holds in all' },
    ),
  ),
  limit: Type.Optional(Type.Integer({ description: '(+) with limit or offset: the page size applied to each list' })),
  offset: Type.Optional(Type.Integer({ description: '(+) with limit or offset: the numbers skipped in each list' })),
});

/** Issue 28, point 9: the plan's lists paged on request; without limit and offset, whole. */
export const NumberingPlanQuery = Type.Object(optionalPageQuery());

export const FreeNumbersQuery = Type.Object({
  startingWith: Type.Optional(
    Type.Union([Type.String({ pattern: '^[0-9]{0,20}$' }), Type.Integer({ minimum: 0 })], {
      description: 'only the numbers whose digits start with these',
    }),
  ),
  limit: Type.Optional(
    Type.Union([Type.Integer(), Type.String()], { description: 'default 100, at most 1000; non-numeric: the default' }),
  ),
});
