// The pbx module: the hosted PBX (document 2, CloudPBX). A CloudPBX is a telephone system of the
// systems module (type `cloud_pbx`) with its settings in this module's table; the resources under
// it (DDI numbers, subscribers, SIP devices...) will be kinds whose chain passes through it.
import { defineModule } from '../module.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';
import { pbxOperations } from './pbx.operations.ts';
import { optionsOperations } from './options.operations.ts';
import { pbxPolicy } from './pbx.policy.ts';
import { pbxErrors } from './pbx.errors.ts';
import { cloudPbxs } from './pbx.tables.ts';

export const pbxTargets = {
  cloudpbx: targetKind(cloudPbxs, {
    // Its company and site are its system's: the relations read them there.
    cols: {},
    readBy: 'getCloudPbx',
    parent: { kind: 'system', column: cloudPbxs.id },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof pbxTargets> {}
}

export const pbxModule = defineModule({
  name: 'pbx',
  operations: [...pbxOperations, ...optionsOperations],
  policy: pbxPolicy,
  errors: pbxErrors,
  targets: pbxTargets,
});
