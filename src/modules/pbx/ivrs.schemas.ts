// Schemas of the welcomes and welcome services of a CloudPBX and of their office hours
// (document 2, "Welcome and welcome service (IVR)", "Office hours", "Welcome services (IVR)";
// routes.md, CloudPBX: createWelcome ... updateOfficeHours; issue 26, points 6 and 7).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';

/** Issue 26, point 6: the overflow destinations' types. */
export const OVERFLOW_TYPES = [
  'user',
  'hunting_group',
  'auto_attendant',
  'voicemail',
  'closed_hours',
  'office_hours',
] as const;
export type OverflowType = (typeof OVERFLOW_TYPES)[number];

const name = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });

/** Document 2, Welcome. */
export const Welcome = Obj(
  {
    id: Id('the welcome’s id (its vcpIVRId)'),
    systemId: Id('the CloudPBX'),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone: the company’s when the welcome was made (UTC if none)' }),
    isDefaultIvr: Type.Boolean({ description: 'the CloudPBX’s first welcome (the oldest one left)' }),
  },
  { description: 'a welcome: office hours in a time zone' },
);

const text = (description: string) => Nullable(Type.String({ description }));

/** Document 2, overflow object: the destination and what the answer reads of it. */
export const OverflowAnswer = Obj(
  {
    type: OneOf(OVERFLOW_TYPES),
    destinationId: Id(
      'the destination: a subscriber’s phoneNumberId, a group’s, a welcome service’s or a welcome’s id',
    ),
    number: text('the destination’s short number (subscriber, group) or external number (welcome service)'),
    name: text('the destination’s name (the user’s display name for a subscriber)'),
    userDisplayName: text('the subscriber’s user’s display name'),
    userId: text('the subscriber’s user'),
    vcpAutoAttendantId: text('auto_attendant: the welcome service'),
    vcpAutoAttendantName: text('auto_attendant: its name'),
  },
  { description: 'an overflow destination of a welcome service' },
);

/** Document 2, Welcome service. */
export const WelcomeService = Obj(
  {
    id: Id('the welcome service’s id (its vcpIVRId, the vcpAutoAttendantId of forwards to it)'),
    systemId: Id('the CloudPBX'),
    name: Type.String(),
    externalNumber: text('E.164: its DDI number'),
    externalNumberId: text('the phoneNumberId of its DDI number'),
    phoneNumberId: text('the phoneNumberId of its DDI number (as externalNumberId)'),
    timezone: Type.String({ description: 'its welcome’s' }),
    welcomeId: Id('its welcome'),
    welcomeName: Type.String(),
    vcpAutoAttendantId: Id('its own id, as forwards name it'),
    isDefaultIvr: Type.Boolean({ description: 'the CloudPBX’s first welcome service (the oldest one left)' }),
    openHoursOverflow: Nullable(OverflowAnswer),
    closedHoursOverflow: Nullable(OverflowAnswer),
  },
  { description: 'a welcome service (IVR)' },
);

/** GET and POST C/ivrs/{ivrId}: either kind. */
export const Ivr = Type.Union([WelcomeService, Welcome], { description: 'a welcome service or a welcome' });

export const IVR_SORT_FIELDS = ['name', 'creationDate'] as const;
export type IvrSortField = (typeof IVR_SORT_FIELDS)[number];
export const ListIvrsQuery = Type.Object({ ...pagingQuery(IVR_SORT_FIELDS, 'name') });

export const IvrParams = Type.Object({ systemId: Id(), ivrId: Id() });

export const CreateWelcomeBody = Obj({ name: name('the welcome’s name') });

/**
 * An overflow in a request: {type, destinationId} (a `number` sent back is ignored: the
 * destination's own is answered). `{}` means no change.
 */
export const OverflowBody = Obj(
  {
    type: Type.Optional(OneOf(OVERFLOW_TYPES)),
    destinationId: Type.Optional(Id('in this CloudPBX, of the type’s kind')),
  },
  {
    description:
      'user and voicemail: a subscriber’s phoneNumberId (voicemail: or a hunting group’s id); hunting_group: a ' +
      'hunting group; auto_attendant: another welcome service; closed_hours and office_hours: a welcome',
  },
);

export const CreateWelcomeServiceBody = Obj({
  name: name('shown on the called party’s phone or client'),
  welcomeId: Id('a welcome of this CloudPBX'),
  openHoursOverflow: OverflowBody,
  closedHoursOverflow: Type.Optional(Nullable(OverflowBody)),
  externalNumberId: Type.Optional(Nullable(Id('a DDI of this CloudPBX assigned to nothing else'))),
});

/** POST C/ivrs/{ivrId}: a welcome takes only its name (the other fields are a service's, ignored). */
export const UpdateIvrBody = Obj({
  name: Type.Optional(name('the new name')),
  welcomeId: Type.Optional(Id('welcome service: another welcome of this CloudPBX')),
  openHoursOverflow: Type.Optional(OverflowBody),
  closedHoursOverflow: Type.Optional(Nullable(OverflowBody)),
  externalNumberId: Type.Optional(
    Nullable(Id('welcome service: a DDI of this CloudPBX assigned to nothing else; null dissociates')),
  ),
});

/** A period: ["HH:MM", "HH:MM"] or ["0"] (the whole day). */
const Period = Type.Array(Type.String(), { description: '["HH:MM", "HH:MM"], start before end, or ["0"]' });

/** The most dated exceptions a welcome keeps (one per date: over a year of them). */
export const MAX_EXCEPTIONS = 500;

/** Document 2, Office hours, as answered. */
export const OfficeHours = Obj({
  openhours: Type.Array(Type.Array(Period), {
    description: 'seven day arrays, the first Sunday; [] closed, [["0"]] open all day',
  }),
  exceptions: Type.Array(
    Obj({
      year: Type.Integer(),
      month: Type.Integer({ minimum: 1, maximum: 12 }),
      mday: Type.Integer({ minimum: 1, maximum: 31 }),
      periods: Type.Array(Period),
      open: Type.Boolean(),
    }),
    { description: 'dated exceptions, each on its date only; a non-open one is the whole day [["0"]]' },
  ),
});

export const OfficeHoursAnswer = Obj({
  officehours: OfficeHours,
  timezone: Type.String({ description: 'the welcome’s IANA time zone' }),
  isOpen: Type.Boolean({ description: 'at the service’s clock, in that time zone' }),
  nextChange: Nullable(DateTime()),
});

/**
 * PUT C/ivrs/{ivrId}/officehours. The values are checked by the service (office-hours.ts) so that
 * a 400 names the day or the exception; an absent member is unchanged ({} changes nothing).
 */
export const UpdateOfficeHoursBody = Obj({
  officehours: Type.Optional(
    Type.Object(
      {
        openhours: Type.Optional(
          Type.Array(Type.Unknown(), {
            maxItems: 7,
            description:
              'seven day arrays, the first Sunday, of periods ["HH:MM", "HH:MM"] (start before end) or ["0"] ' +
              '(the whole day): [] closed, [["0"]] open all day',
          }),
        ),
        exceptions: Type.Optional(
          Type.Array(Type.Unknown(), {
            maxItems: MAX_EXCEPTIONS,
            description:
              '{year, month 1 to 12, mday 1 to 31 (a real date), periods, open}, one per date; a non-open exception ' +
              'is the whole day; the complete new list',
          }),
        ),
      },
      {
        additionalProperties: false,
        description: 'document 2, office hours',
        examples: [
          {
            openhours: [
              [],
              [
                ['08:30', '12:00'],
                ['14:00', '18:00'],
              ],
              [['0']],
              [],
              [],
              [['09:00', '17:00']],
              [],
            ],
            exceptions: [{ year: 2026, month: 12, mday: 25, periods: [['0']], open: false }],
          },
        ],
      },
    ),
  ),
});

export const UpdateOfficeHoursAnswer = Obj({ status: Type.String(), officehours: OfficeHours });
