// SQL of the programmable keys of a SIP device (pbx_programmable_keys).
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { programmableKeys } from './devices.tables.ts';

export type KeyRow = typeof programmableKeys.$inferSelect;
export type NewKey = typeof programmableKeys.$inferInsert;

export async function listKeys(exec: Executor, deviceId: string): Promise<KeyRow[]> {
  return exec
    .select()
    .from(programmableKeys)
    .where(eq(programmableKeys.deviceId, deviceId))
    .orderBy(asc(programmableKeys.keyNum));
}

export async function getKey(exec: Executor, deviceId: string, keyNum: number): Promise<KeyRow | undefined> {
  const [r] = await exec
    .select()
    .from(programmableKeys)
    .where(and(eq(programmableKeys.deviceId, deviceId), eq(programmableKeys.keyNum, keyNum)));
  return r;
}

export async function insertKey(exec: Executor, row: NewKey): Promise<KeyRow> {
  const [r] = await exec.insert(programmableKeys).values(row).returning();
  return r;
}

/** Deletes the key when it is an `admin` key; answers the deleted row. */
export async function deleteAdminKey(exec: Executor, deviceId: string, keyNum: number): Promise<KeyRow | undefined> {
  const [r] = await exec
    .delete(programmableKeys)
    .where(
      and(
        eq(programmableKeys.deviceId, deviceId),
        eq(programmableKeys.keyNum, keyNum),
        eq(programmableKeys.keyOwner, 'admin'),
      ),
    )
    .returning();
  return r;
}
