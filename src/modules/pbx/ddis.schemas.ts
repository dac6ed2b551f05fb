// Schemas of the DDI numbers of a CloudPBX (document 2, "Phone number (DDI) of a CloudPBX" and
// "Phone numbers (DDI)"; routes.md, CloudPBX: listDdis ... unassignDdiFromUser).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';

export const DDI_TYPES = ['home', 'work', 'other'] as const;
export const DDI_DEVICE_TYPES = ['landline', 'mobile', 'fax', 'other'] as const;

/** Document 2, Phone number (DDI) of a CloudPBX: every field, always (the list has no format levels). */
export const Ddi = Obj(
  {
    id: Id('the phoneNumberId of the DDI'),
    systemId: Id('the CloudPBX (its system)'),
    pbxId: Type.String({ description: 'the pbxId of the CloudPBX’s system' }),
    externalTrunkId: Nullable(Type.String({ description: 'the external trunk of the CloudPBX, if any' })),
    userId: Nullable(Type.String({ description: 'the user it is assigned to; null when unassigned' })),
    number: Type.String({ description: 'as it was sent' }),
    numberE164: Type.String({ description: 'E.164, from the company’s country; unique across the platform' }),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-3: the company’s at creation' })),
    deviceName: Nullable(Type.String()),
    firstName: Nullable(Type.String({ description: 'of the user it is assigned to' })),
    lastName: Nullable(Type.String({ description: 'of the user it is assigned to' })),
    userDisplayName: Nullable(Type.String({ description: 'of the user it is assigned to' })),
    welcomeName: Nullable(
      Type.String({ description: 'of the welcome service it is the external number of (its vcpIVRId)' }),
    ),
    names: Type.Array(Type.String(), { description: 'the names of what it is assigned to (the user’s display name)' }),
    type: OneOf(DDI_TYPES),
    deviceType: OneOf(DDI_DEVICE_TYPES),
    isFromSystem: Type.Boolean({ description: 'always false: a DDI is made through this interface' }),
    isMonitored: Type.Boolean(),
    isVisibleByOthers: Type.Boolean(),
    isCloudPbxDefault: Type.Boolean({ description: 'the one default DDI of the CloudPBX' }),
    isCloudPbxDDI: Type.Boolean({ description: 'always true' }),
    creationDate: DateTime(),
    jid_im: Nullable(Type.String({ description: 'of the user it is assigned to' })),
    jid_tel: Nullable(Type.String({ description: 'while assigned to a user' })),
    jid_password: Nullable(Type.String({ description: 'secret, while assigned to a user' })),
    vcpGroupId: Nullable(Type.String()),
    vcpIVRId: Nullable(Type.String()),
    vcpAutoAttendantId: Nullable(Type.String()),
  },
  { description: 'a DDI number of a CloudPBX' },
);

export const DDI_SORT_FIELDS = ['number', 'numberE164', 'creationDate'] as const;
export type DdiSortField = (typeof DDI_SORT_FIELDS)[number];

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const ListDdisQuery = Type.Object({
  ...pagingQuery(DDI_SORT_FIELDS, 'number'),
  isAssignedToUser: flag('true: only the DDIs assigned to a user; false: only the others'),
  isAssignedToGroup: flag('true: only the DDIs assigned to a group; false: only the others'),
  isAssignedToIVR: flag('true: only the DDIs assigned to a welcome service; false: only the others'),
  isAssignedToAutoAttendant: flag('true: only the DDIs assigned to an auto attendant; false: only the others'),
  isAssigned: flag('true: only the DDIs assigned to anything; false: only the unassigned ones'),
});

export const CreateDdiBody = Obj({
  number: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'national or international form; normalised to E.164 with the company’s country',
    examples: ['+33123456789'],
  }),
});

export const DdiParams = Type.Object({ systemId: Id(), phoneNumberId: Id() });
export const DdiUserParams = Type.Object({ systemId: Id(), phoneNumberId: Id(), userId: Id() });
