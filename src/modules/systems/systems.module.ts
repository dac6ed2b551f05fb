// The systems module: telephone systems, their links to sites and their phone numbers
// (document 3, Systems and sites, Phone numbers of a system; document 1, Gateway notifications).
import { defineModule } from '../module.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';
import { systemsOperations } from './systems.operations.ts';
import { phoneNumbersOperations } from './phone-numbers.operations.ts';
import { systemsPolicy } from './systems.policy.ts';
import { systemsErrors } from './systems.errors.ts';
import { systems } from './systems.tables.ts';
import { systemPhoneNumbers } from './phone-numbers.tables.ts';
import { checkConnectedGateways, recordGatewayPresence } from './connections.service.ts';

export const systemsTargets = {
  system: targetKind(systems, {
    cols: { company: systems.companyId, site: systems.siteId },
    readBy: 'getSystem',
  }),
  systemPhoneNumber: targetKind(systemPhoneNumbers, {
    // Its company and site are its system's: the relations read them there.
    cols: {},
    readBy: 'getSystemPhoneNumber',
    parent: { kind: 'system', column: systemPhoneNumbers.systemId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof systemsTargets> {}
}

export const systemsModule = defineModule({
  name: 'systems',
  operations: [...systemsOperations, ...phoneNumbersOperations],
  policy: systemsPolicy,
  errors: systemsErrors,
  targets: systemsTargets,
  // A gateway logging in or out (connectionHistory, status activated).
  presence: async (presence, deps) => void (await recordGatewayPresence(deps.db, presence, deps.now())),
  // Gateways that left while no instance was connected (connectionHistory).
  xmppOnline: async (deps) => void (await checkConnectedGateways(deps.db, deps.xmpp, deps.now)),
});
