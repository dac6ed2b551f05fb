// The kind of target of the external trunks (document 2): filled by the work of issue 25, point 7.
import type { TargetKind } from '../../authz/targets.ts';

export const trunkTargets = {} satisfies Record<string, TargetKind>;
