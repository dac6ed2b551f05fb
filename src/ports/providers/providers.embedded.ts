// The embedded media and conference providers: provisionings kept in port_records.
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records, recordsBetween } from '../records.ts';
import type { ConferenceRecord, ProvidersPort, Provisioning } from './providers.port.ts';

export function embeddedProviders(db: Db, now: () => Date): ProvidersPort {
  const store = records<Omit<Provisioning, 'id'>>(db, 'providers', 'provisioning');
  // Usage records of the conference bridge, by company: the invoicing module's CDR files read them.
  const conferences = records<Omit<ConferenceRecord, 'id'>>(db, 'providers', 'conference');
  return {
    async provision(p) {
      if (p.providerType === 'media' && !p.mediaType)
        throw new PortFailure('providers', 'provision', 'a media provisioning needs its mediaType');
      if (p.providerType === 'conference' && !p.bridgeEnterpriseId)
        throw new PortFailure('providers', 'provision', 'a conference provisioning needs its bridgeEnterpriseId');
      return store.insert(
        {
          providerType: p.providerType,
          companyId: p.companyId,
          subscriptionId: p.subscriptionId,
          mediaType: p.mediaType ?? null,
          bridgeEnterpriseId: p.bridgeEnterpriseId ?? null,
          status: 'ready',
          startDate: now().toISOString(),
        },
        { parentId: p.subscriptionId },
      );
    },
    async deprovision(id) {
      if (!(await store.get(id))) throw new PortFailure('providers', 'deprovision', `no provisioning ${id}`);
      return (await store.update(id, { status: 'removed' }))!;
    },
    get: (id) => store.get(id),
    ofSubscription: (subscriptionId) => store.children(subscriptionId),
    recordConference: (r) => conferences.insert(r, { parentId: r.companyId }),
    conferenceRecords: (from, to) =>
      recordsBetween<Omit<ConferenceRecord, 'id'>>(db, 'providers', 'conference', 'startTime', from, to),
  };
}
