// The device accounts of the SIP registrar as the service keeps them (port_records): which device
// has which user name, under which tenant. Both voice implementations use it: the embedded one
// keeps the HA1 here too; the Kamailio one keeps the HA1 only in Kamailio's `subscriber` table.
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records } from '../records.ts';
import type { DeviceAccount } from './voice.port.ts';

/** The default SIP domain (and realm) of the device accounts (setting SIP_DOMAIN). */
export const DEFAULT_SIP_DOMAIN = 'sip.localhost';

/** A SIP user name the registrar and its digest accept as is: no ':' or '@', at most 64 characters (Kamailio's column). */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

type Stored = Omit<DeviceAccount, 'deviceId'> & { ha1?: string };

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The digest credentials of an account: HA1 = md5(username:realm:password); HA1B, Kamailio's second column, with `username@domain` as user. */
export function digestHashes(username: string, domain: string, password: string): { ha1: string; ha1b: string } {
  return { ha1: md5(`${username}:${domain}:${password}`), ha1b: md5(`${username}@${domain}:${domain}:${password}`) };
}

export function checkDeviceAccountInput(operation: string, a: { username?: string; password?: string }): void {
  if (a.username !== undefined && !USERNAME.test(a.username))
    throw new PortFailure(
      'voice',
      operation,
      'the user name must be 1 to 64 letters, digits, dots, dashes, underscores or plus signs, starting with a letter or a digit',
    );
  if (a.password !== undefined && (a.password.length < 1 || a.password.length > 128))
    throw new PortFailure('voice', operation, 'the password must have 1 to 128 characters');
}

export function deviceAccountRecords(db: Db, sipDomain: string) {
  const accounts = records<Stored>(db, 'voice', 'device-account');
  // One record per user name of the domain, naming its device: a user name has one account.
  const names = records<{ deviceId: string }>(db, 'voice', 'device-username');
  const nameKey = (username: string, domain: string) => `${username}@${domain}`;
  const out = (deviceId: string, s: Stored): DeviceAccount => ({
    deviceId,
    tenantId: s.tenantId,
    username: s.username,
    domain: s.domain,
    enabled: s.enabled,
  });
  return {
    async create(a: { tenantId: string; deviceId: string; username: string; ha1?: string }): Promise<DeviceAccount> {
      if (await accounts.get(a.deviceId))
        throw new PortFailure('voice', 'createDeviceAccount', `device ${a.deviceId} already has an account`);
      if (await names.get(nameKey(a.username, sipDomain)))
        throw new PortFailure('voice', 'createDeviceAccount', `user name ${a.username} is taken`);
      await names.insert({ deviceId: a.deviceId }, { id: nameKey(a.username, sipDomain) });
      const stored: Stored = { tenantId: a.tenantId, username: a.username, domain: sipDomain, enabled: true };
      if (a.ha1 !== undefined) stored.ha1 = a.ha1;
      await accounts.insert(stored, { id: a.deviceId, parentId: a.tenantId });
      return out(a.deviceId, stored);
    },
    async get(deviceId: string): Promise<(DeviceAccount & { ha1?: string }) | undefined> {
      const s = await accounts.get(deviceId);
      return s ? { ...out(deviceId, s), ...(s.ha1 === undefined ? {} : { ha1: s.ha1 }) } : undefined;
    },
    /** The account as the port answers it (no HA1), or undefined. */
    async view(deviceId: string): Promise<DeviceAccount | undefined> {
      const s = await accounts.get(deviceId);
      return s && out(deviceId, s);
    },
    /** The account of a device, which must have one (PortFailure naming the operation otherwise). */
    async need(operation: string, deviceId: string): Promise<DeviceAccount & { ha1?: string }> {
      const a = await this.get(deviceId);
      if (!a) throw new PortFailure('voice', operation, `device ${deviceId} has no account`);
      return a;
    },
    async setHa1(deviceId: string, ha1: string): Promise<void> {
      await accounts.update(deviceId, { ha1 });
    },
    async setEnabled(deviceId: string, enabled: boolean): Promise<void> {
      await accounts.update(deviceId, { enabled });
    },
    async remove(deviceId: string): Promise<void> {
      const s = await accounts.get(deviceId);
      if (!s) return;
      await accounts.remove(deviceId);
      await names.remove(nameKey(s.username, s.domain));
    },
    async ofTenant(tenantId: string): Promise<DeviceAccount[]> {
      return (await accounts.children(tenantId)).map((s) => out(s.id, s));
    },
  };
}
