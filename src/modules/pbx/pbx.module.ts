// The pbx module: the hosted PBX (document 2, CloudPBX). A CloudPBX is a telephone system of the
// systems module (type `cloud_pbx`) with its settings in this module's table; the resources under
// it (DDI numbers, subscribers, SIP devices...) will be kinds whose chain passes through it.
import { defineModule } from '../module.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';
import type { Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { pbxOperations } from './pbx.operations.ts';
import { optionsOperations } from './options.operations.ts';
import { pbxPolicy } from './pbx.policy.ts';
import { pbxErrors } from './pbx.errors.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import { ddis } from './ddis.tables.ts';
import { devices } from './devices.tables.ts';
import { ddiOperations } from './ddis.operations.ts';
import { ddiPolicy } from './ddis.policy.ts';
import { ddiErrors } from './ddis.errors.ts';
import { subscriberOperations } from './subscribers.operations.ts';
import { subscriberPolicy } from './subscribers.policy.ts';
import { subscriberErrors } from './subscribers.errors.ts';
import { deviceOperations } from './devices.operations.ts';
import { devicePolicy } from './devices.policy.ts';
import { deviceErrors } from './devices.errors.ts';
import { trunkOperations } from './trunks.operations.ts';
import { trunkPolicy } from './trunks.policy.ts';
import { trunkErrors } from './trunks.errors.ts';
import { trunkTargets } from './trunks.targets.ts';
import { groups } from './groups.tables.ts';
import { greetingFiles } from './greetings.tables.ts';
import { recordings } from './recordings.tables.ts';
import { ivrs } from './ivrs.tables.ts';
import { groupOperations } from './groups.operations.ts';
import { groupPolicy } from './groups.policy.ts';
import { groupErrors } from './groups.errors.ts';
import { greetingOperations } from './greetings.operations.ts';
import { greetingPolicy } from './greetings.policy.ts';
import { greetingErrors } from './greetings.errors.ts';
import { defineGreetingJobs } from './greetings.jobs.ts';
import { recordingOperations } from './recordings.operations.ts';
import { recordingPolicy } from './recordings.policy.ts';
import { recordingErrors } from './recordings.errors.ts';
import { defineRecordingJobs } from './recordings.jobs.ts';
import { ivrOperations } from './ivrs.operations.ts';
import { ivrPolicy } from './ivrs.policy.ts';
import { ivrErrors } from './ivrs.errors.ts';

/**
 * An object of a CloudPBX: its company and site are the PBX's (its system's), so the kind has no
 * columns of its own and the CloudPBX as its parent.
 */
const underCloudPbx = <T extends PgTable & { id: Column; cloudPbxId: Column }>(table: T, readBy: string) =>
  targetKind(table, { cols: {}, readBy, parent: { kind: 'cloudpbx', column: table.cloudPbxId } });

export const pbxTargets = {
  cloudpbx: targetKind(cloudPbxs, {
    // Its company and site are its system's: the relations read them there.
    cols: {},
    readBy: 'getCloudPbx',
    parent: { kind: 'system', column: cloudPbxs.id },
  }),
  subscriber: underCloudPbx(subscribers, 'getSubscriber'),
  ddi: underCloudPbx(ddis, 'listDdis'),
  device: underCloudPbx(devices, 'getDevice'),
  group: underCloudPbx(groups, 'getGroup'),
  /** An uploaded greeting file (fileId). */
  greeting: underCloudPbx(greetingFiles, 'getGreeting'),
  recording: underCloudPbx(recordings, 'getRecording'),
  /** A welcome or a welcome service. */
  ivr: underCloudPbx(ivrs, 'getWelcome'),
  ...trunkTargets,
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof pbxTargets> {}
}

export const pbxModule = defineModule({
  name: 'pbx',
  operations: [
    ...pbxOperations,
    ...optionsOperations,
    ...ddiOperations,
    ...subscriberOperations,
    ...deviceOperations,
    ...trunkOperations,
    ...groupOperations,
    ...greetingOperations,
    ...recordingOperations,
    ...ivrOperations,
  ],
  policy: {
    ...pbxPolicy,
    ...ddiPolicy,
    ...subscriberPolicy,
    ...devicePolicy,
    ...trunkPolicy,
    ...groupPolicy,
    ...greetingPolicy,
    ...recordingPolicy,
    ...ivrPolicy,
  },
  errors: {
    ...pbxErrors,
    ...ddiErrors,
    ...subscriberErrors,
    ...deviceErrors,
    ...trunkErrors,
    ...groupErrors,
    ...greetingErrors,
    ...recordingErrors,
    ...ivrErrors,
  },
  targets: pbxTargets,
  // The hourly retention of recordings (issue 26, point 5) and sweep of audio files without a row (point 8).
  jobs: async (queue, deps) => {
    await defineRecordingJobs(queue, deps);
    await defineGreetingJobs(queue, deps);
  },
});
