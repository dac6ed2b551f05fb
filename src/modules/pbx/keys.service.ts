// Rules of the programmable keys of a SIP device (document 2, Programmable key; the operations
// table; issue 25, point 6; decisions in docs/decisions.md, "CloudPBX: SIP devices and
// programmable keys"). A model offers a number of keys (options.data.ts; the generic SIP model
// none); `admin` keys are made and deleted through the API, `service` and `system` keys come from
// service activations and the platform and are not deleted here.
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { isOneOf } from '../../shared/json-values.ts';
import { storedDeviceModel } from './options.data.ts';
import * as deviceRepo from './devices.repo.ts';
import * as repo from './keys.repo.ts';
import { KEY_OWNERS, KEY_TYPES } from './keys.schemas.ts';

/** Document 2, Programmable key (a stored value outside the document's lists is shown as `reserved` / `system`). */
const toApiKey = (k: repo.KeyRow) => ({
  keyType: isOneOf(KEY_TYPES, k.keyType) ? k.keyType : 'reserved',
  keyNum: k.keyNum,
  keyOwner: isOneOf(KEY_OWNERS, k.keyOwner) ? k.keyOwner : 'system',
  userId: k.userId,
  phoneNumberId: k.phoneNumberId,
  displayName: k.displayName,
  number: k.number,
});

/** Document 2, list programmable keys: the key list wrapper. */
export async function listKeys(exec: Executor, device: deviceRepo.DeviceRow) {
  const model = storedDeviceModel(device.deviceTypeId);
  const keys = await repo.listKeys(exec, device.id);
  const used = keys.filter((k) => k.keyNum >= 1 && k.keyNum <= model.programmableKeys).length;
  return {
    deviceId: device.id,
    deviceType: { id: model.id, vendor: model.vendor, model: model.model },
    programmableKeys: model.programmableKeys,
    availableKeys: Math.max(0, model.programmableKeys - used),
    keys: keys.map(toApiKey),
  };
}

export interface CreateKeyInput {
  keyNum: number;
  keyType: 'speeddial' | 'monitor';
  displayName?: string | null;
  number?: string | null;
  phoneNumberId?: string | null;
}

/**
 * Document 2, create a programmable key: keyNum from 1 to the device's maximum (400833; the
 * generic SIP model has none) and free (409832); a `speeddial` dials an external number or a
 * subscriber of the CloudPBX (one of them), a `monitor` watches a subscriber's line ("monitor for
 * users only": phoneNumberId required, no number); 400834 otherwise, 400835 for a phoneNumberId
 * that is not a subscriber of this CloudPBX.
 */
export async function createKey(db: Executor, device: deviceRepo.DeviceRow, body: CreateKeyInput) {
  const model = storedDeviceModel(device.deviceTypeId);
  if (body.keyNum < 1 || body.keyNum > model.programmableKeys)
    fail('KEY_NUM_OUT_OF_RANGE', {
      field: 'keyNum',
      keyNum: body.keyNum,
      programmableKeys: model.programmableKeys,
      deviceTypeId: model.id,
    });
  const number = body.number ?? null;
  const phoneNumberId = body.phoneNumberId ?? null;
  if (body.keyType === 'monitor' && (phoneNumberId === null || number !== null))
    fail('KEY_DESTINATION_INVALID', { field: 'phoneNumberId', keyType: 'monitor' });
  if (body.keyType === 'speeddial' && (phoneNumberId === null) === (number === null))
    fail('KEY_DESTINATION_INVALID', { field: number === null ? 'number' : 'phoneNumberId', keyType: 'speeddial' });
  const destination =
    phoneNumberId === null
      ? undefined
      : ((await deviceRepo.subscriberOfPbx(db, device.cloudPbxId, phoneNumberId)) ??
        fail('KEY_DESTINATION_UNKNOWN', { field: 'phoneNumberId', phoneNumberId }));
  try {
    const key = await db.transaction(async (tx) => {
      if (await repo.getKey(tx, device.id, body.keyNum))
        fail('KEY_NUM_TAKEN', { field: 'keyNum', keyNum: body.keyNum });
      return repo.insertKey(tx, {
        deviceId: device.id,
        keyNum: body.keyNum,
        keyType: body.keyType,
        keyOwner: 'admin',
        userId: destination?.userId ?? null,
        phoneNumberId: destination?.id ?? null,
        displayName: body.displayName ?? null,
        number,
      });
    });
    return {
      status: `Programmable key ${key.keyNum} of SIP device ${device.id} created`,
      data: {
        keyType: body.keyType,
        keyNum: key.keyNum,
        keyOwner: 'admin' as const,
        displayName: key.displayName,
        number: key.number,
      },
    };
  } catch (err) {
    // The same key made meanwhile: the primary key refuses the second.
    if (deviceRepo.isUniqueViolation(err, deviceRepo.KEY_PRIMARY_KEY))
      fail('KEY_NUM_TAKEN', { field: 'keyNum', keyNum: body.keyNum });
    throw err;
  }
}

/**
 * Document 2, delete a programmable key: "only keys created through the create-key operation"
 * (keyOwner `admin`); a `service` or `system` key is 409833, an unknown keyNum 404.
 */
export async function deleteKey(db: Executor, device: deviceRepo.DeviceRow, keyNum: number) {
  const deleted = await repo.deleteAdminKey(db, device.id, keyNum);
  if (!deleted) {
    const key = await repo.getKey(db, device.id, keyNum);
    if (!key) fail('NOT_FOUND', { target: 'programmableKey', deviceId: device.id, keyNum });
    fail('KEY_NOT_ADMIN', { keyNum, keyOwner: key.keyOwner });
  }
  return {
    status: `Programmable key ${keyNum} of SIP device ${device.id} deleted`,
    data: { keyType: toApiKey(deleted).keyType, keyNum: deleted.keyNum },
  };
}
