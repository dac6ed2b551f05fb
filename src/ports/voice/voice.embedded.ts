// The embedded voice platform: tenants and subscribers kept in port_records; a short number is
// unique within its tenant, as on the platform. Device accounts (issue 25, point 8) are kept there
// too, with their HA1 only (never the password), but there is no SIP registrar behind them: no
// phone can register, so a device's registrations are always an empty list and a reboot notifies
// 0 contacts. The real registrar is Kamailio (voice.kamailio.ts, PORTS=voice=kamailio).
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records, recordsBetween } from '../records.ts';
import type { CallRecord, VoicePort, VoiceSubscriber, VoiceTenant } from './voice.port.ts';
import { checkDeviceAccountInput, DEFAULT_SIP_DOMAIN, deviceAccountRecords, digestHashes } from './device-accounts.ts';

export function embeddedVoice(db: Db, sipDomain = DEFAULT_SIP_DOMAIN): VoicePort {
  const tenants = records<Omit<VoiceTenant, 'id'>>(db, 'voice', 'tenant');
  const subscribers = records<Omit<VoiceSubscriber, 'id'>>(db, 'voice', 'subscriber');
  // Usage records (CDR) of calls, by company: the invoicing module's CDR files read them.
  const calls = records<Omit<CallRecord, 'id'>>(db, 'voice', 'call');
  const numberFree = async (tenantId: string, shortNumber: string, exceptId?: string) =>
    !(await subscribers.children(tenantId)).some((s) => s.shortNumber === shortNumber && s.id !== exceptId);
  const devices = deviceAccountRecords(db, sipDomain);
  const account = (operation: string, deviceId: string) => devices.need(operation, deviceId);
  return {
    sipDomain,
    createTenant: (t) => tenants.insert({ companyId: t.companyId, name: t.name }, { parentId: t.companyId }),
    async deleteTenant(tenantId) {
      if ((await subscribers.children(tenantId)).length)
        throw new PortFailure('voice', 'deleteTenant', `tenant ${tenantId} still has subscribers`);
      if ((await devices.ofTenant(tenantId)).length)
        throw new PortFailure('voice', 'deleteTenant', `tenant ${tenantId} still has device accounts`);
      if (!(await tenants.remove(tenantId))) throw new PortFailure('voice', 'deleteTenant', `no tenant ${tenantId}`);
    },
    async createSubscriber(s) {
      if (!(await tenants.get(s.tenantId)))
        throw new PortFailure('voice', 'createSubscriber', `no tenant ${s.tenantId}`);
      if (!(await numberFree(s.tenantId, s.shortNumber)))
        throw new PortFailure('voice', 'createSubscriber', `short number ${s.shortNumber} is taken`);
      return subscribers.insert(
        { tenantId: s.tenantId, userId: s.userId, shortNumber: s.shortNumber, numberE164: s.numberE164 ?? null },
        { parentId: s.tenantId },
      );
    },
    async updateSubscriber(id, change) {
      const s = await subscribers.get(id);
      if (!s) throw new PortFailure('voice', 'updateSubscriber', `no subscriber ${id}`);
      if (change.shortNumber && !(await numberFree(s.tenantId, change.shortNumber, id)))
        throw new PortFailure('voice', 'updateSubscriber', `short number ${change.shortNumber} is taken`);
      return (await subscribers.update(id, change))!;
    },
    async deleteSubscriber(id) {
      if (!(await subscribers.remove(id))) throw new PortFailure('voice', 'deleteSubscriber', `no subscriber ${id}`);
    },
    listSubscribers: (tenantId) => subscribers.children(tenantId),
    recordCall: (r) => calls.insert(r, { parentId: r.companyId }),
    callRecords: (from, to) => recordsBetween<Omit<CallRecord, 'id'>>(db, 'voice', 'call', 'startTime', from, to),
    async createDeviceAccount(a) {
      checkDeviceAccountInput('createDeviceAccount', a);
      if (!(await tenants.get(a.tenantId)))
        throw new PortFailure('voice', 'createDeviceAccount', `no tenant ${a.tenantId}`);
      const { ha1 } = digestHashes(a.username, sipDomain, a.password);
      return devices.create({ tenantId: a.tenantId, deviceId: a.deviceId, username: a.username, ha1 });
    },
    getDeviceAccount: (deviceId) => devices.view(deviceId),
    async changeDeviceAccountPassword(deviceId, password) {
      checkDeviceAccountInput('changeDeviceAccountPassword', { password });
      const a = await account('changeDeviceAccountPassword', deviceId);
      await devices.setHa1(deviceId, digestHashes(a.username, a.domain, password).ha1);
    },
    async setDeviceAccountEnabled(deviceId, enabled) {
      await account('setDeviceAccountEnabled', deviceId);
      await devices.setEnabled(deviceId, enabled);
    },
    async deleteDeviceAccount(deviceId) {
      await account('deleteDeviceAccount', deviceId);
      await devices.remove(deviceId);
    },
    // No registrar: nothing registers, so there is nothing to list or to notify.
    async listRegistrations(deviceId) {
      await account('listRegistrations', deviceId);
      return [];
    },
    async rebootDevice(deviceId) {
      await account('rebootDevice', deviceId);
      return 0;
    },
  };
}
