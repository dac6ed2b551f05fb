// The embedded voice platform: tenants and subscribers kept in port_records; a short number is
// unique within its tenant, as on the platform.
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records, recordsBetween } from '../records.ts';
import type { CallRecord, VoicePort, VoiceSubscriber, VoiceTenant } from './voice.port.ts';

export function embeddedVoice(db: Db): VoicePort {
  const tenants = records<Omit<VoiceTenant, 'id'>>(db, 'voice', 'tenant');
  const subscribers = records<Omit<VoiceSubscriber, 'id'>>(db, 'voice', 'subscriber');
  // Usage records (CDR) of calls, by company: the invoicing module's CDR files read them.
  const calls = records<Omit<CallRecord, 'id'>>(db, 'voice', 'call');
  const numberFree = async (tenantId: string, shortNumber: string, exceptId?: string) =>
    !(await subscribers.children(tenantId)).some((s) => s.shortNumber === shortNumber && s.id !== exceptId);
  return {
    createTenant: (t) => tenants.insert({ companyId: t.companyId, name: t.name }, { parentId: t.companyId }),
    async deleteTenant(tenantId) {
      if ((await subscribers.children(tenantId)).length)
        throw new PortFailure('voice', 'deleteTenant', `tenant ${tenantId} still has subscribers`);
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
  };
}
