// Schemas of the programmable keys of a SIP device (document 2, Programmable key; the operations
// table: list, create and delete programmable keys).
import { Type } from 'typebox';
import { Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { DeviceType } from './devices.schemas.ts';

export const KEY_TYPES = ['speeddial', 'monitor', 'reserved'] as const;
export const KEY_OWNERS = ['service', 'system', 'admin'] as const;
/** The key types the create-key operation makes (document 2: `speeddial`, `monitor`). */
export const CREATED_KEY_TYPES = ['speeddial', 'monitor'] as const;

const KeyNum = Type.Integer({
  minimum: 0,
  maximum: 2_147_483_647,
  description: '1 to the model’s number of programmable keys (a number or a numeric string)',
});

export const KeyParams = Type.Object({ systemId: Id(), deviceId: Id(), keyNum: KeyNum });

/** Document 2, Programmable key. */
export const ProgrammableKey = Obj({
  keyType: OneOf(KEY_TYPES),
  keyNum: Type.Integer(),
  keyOwner: OneOf(KEY_OWNERS),
  userId: Nullable(Type.String()),
  phoneNumberId: Nullable(Type.String()),
  displayName: Nullable(Type.String()),
  number: Nullable(Type.String()),
});

/** Document 2, key list wrapper. */
export const KeyList = Obj({
  deviceId: Type.String(),
  deviceType: DeviceType,
  programmableKeys: Type.Integer({ description: 'the number of programmable keys of the device’s model' }),
  availableKeys: Type.Integer({ description: 'those not used by a key' }),
  keys: Type.Array(ProgrammableKey),
});

export const CreateKeyBody = Obj({
  keyNum: KeyNum,
  keyType: OneOf(CREATED_KEY_TYPES),
  displayName: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  number: Type.Optional(
    Nullable(Type.String({ pattern: '^\\+?[0-9*#]{1,32}$', description: 'an external number (speeddial)' })),
  ),
  phoneNumberId: Type.Optional(
    Nullable(Id('a subscriber of the CloudPBX: the destination (speeddial) or the monitored line (monitor)')),
  ),
});

export const CreatedKey = Obj({
  keyType: OneOf(CREATED_KEY_TYPES),
  keyNum: Type.Integer(),
  keyOwner: Type.Literal('admin'),
  displayName: Nullable(Type.String()),
  number: Nullable(Type.String()),
});

export const DeletedKey = Obj({ keyType: OneOf(KEY_TYPES), keyNum: Type.Integer() });
