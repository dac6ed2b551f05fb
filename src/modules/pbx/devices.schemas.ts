// Schemas of the SIP devices of a CloudPBX (document 2, SIP device, SIP registration; routes.md,
// CloudPBX: createDevice...; decisions in docs/decisions.md, "CloudPBX: SIP devices and
// programmable keys").
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';

export const DeviceParams = Type.Object({ systemId: Id(), deviceId: Id() });
export const SubscriberParams = Type.Object({ systemId: Id(), phoneNumberId: Id('the subscriber’s id') });
export const SubscriberDeviceParams = Type.Object({
  systemId: Id(),
  phoneNumberId: Id('the subscriber’s id'),
  deviceId: Id(),
});

/** Document 2, SIP device `deviceType`. */
export const DeviceType = Obj({ id: Type.Integer(), vendor: Type.String(), model: Type.String() });

/** Document 2, SIP device; plus the SIP credentials its phone registers with (docs/decisions.md). */
export const Device = Obj(
  {
    id: Id(),
    systemId: Id('the CloudPBX'),
    companyId: Id(),
    description: Type.String(),
    macAddress: Nullable(
      Type.String({ description: "lower-case hex pairs joined by ':'; null for a generic SIP device without one" }),
    ),
    phoneNumberId: Nullable(Type.String({ description: 'the subscriber it is assigned to; null when unassigned' })),
    shortNumber: Nullable(Type.String()),
    userId: Nullable(Type.String()),
    userDisplayName: Nullable(Type.String()),
    deviceType: DeviceType,
    currentDevice: Type.Boolean({
      description: 'true while the configuration of the device is in force: on creation, false after a reset',
    }),
    adminPassword: Nullable(
      Type.String({
        description: 'the admin password of the phone, a secret: only while a debug session is granted, only by get',
      }),
    ),
    debugSessionEndDate: Nullable(DateTime()),
    adminUrl: Nullable(Type.String({ description: 'only while a debug session is granted; may be unreachable' })),
    sipUsername: Type.String({ description: 'the user name of its SIP account on the registrar' }),
    sipPassword: Nullable(
      Type.String({
        description: 'the password of its SIP account, a secret: answered by create and get, null in lists',
      }),
    ),
    sipDomain: Type.String({ description: 'the SIP domain (and digest realm) to register with' }),
    resetDate: Nullable(DateTime()),
    creationDate: DateTime(),
  },
  { description: 'a SIP device of a CloudPBX' },
);

/** numbers may be sent as strings (document 1): coerced by the schema's integer. */
const DeviceTypeId = Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'the id of a device model' });
const Mac = Type.String({ maxLength: 64, description: "12 hex digits, grouped or not by ':', '-' or '.'" });

export const CreateDeviceBody = Obj({
  description: Type.String({ minLength: 1, maxLength: 255 }),
  deviceTypeId: DeviceTypeId,
  macAddress: Type.Optional(Nullable(Mac)),
});

export const UpdateDeviceBody = Obj({
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  macAddress: Type.Optional(Nullable(Mac)),
});

/** Document 2, assign a SIP device: its id (preferred) or its MAC address plus its device type id. */
export const AssignDeviceBody = Obj({
  deviceId: Type.Optional(Id()),
  macAddress: Type.Optional(Mac),
  deviceTypeId: Type.Optional(DeviceTypeId),
});

export const DEVICE_SORT_FIELDS = ['macAddress', 'description', 'deviceTypeId', 'creationDate'] as const;

export const ListDevicesQuery = Obj({
  ...pagingQuery(DEVICE_SORT_FIELDS, 'macAddress'),
  assigned: Type.Optional(Type.Boolean({ description: 'true: assigned devices only; false: unassigned only' })),
  phoneNumberId: Type.Optional(Type.String({ maxLength: 64, description: 'the devices of this subscriber' })),
});

export const ListSubscriberDevicesQuery = Obj({ ...pagingQuery(DEVICE_SORT_FIELDS, 'macAddress') });

/** Document 2, grant a debug session: duration in seconds (a string or a number). */
export const GrantDebugBody = Obj({
  duration: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 604_800,
      description: 'seconds, default 1800; only a superadmin may give another value (at most 7 days)',
    }),
  ),
});

/** Document 2, SIP registration. */
export const Registration = Obj({
  id: Type.String(),
  fullSipURI: Type.String(),
  expirationDate: Type.String({ description: 'YYYY-MM-DD HH:MM:SS, UTC' }),
  user_agent: Type.String(),
  deviceId: Type.String(),
  publicSourceRegistration: Type.String(),
});
