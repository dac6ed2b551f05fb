// The kind of target of the external trunks (document 2, External SIP trunk; issue 25, point 7).
// A trunk belongs to no company: it is the platform's, and its bp_ids name the BP companies that
// may use it. The relations trunkOfOwnCompany and trunkOfOwnBp (src/authz/relations.ts) read them.
import { targetKind, type TargetKind } from '../../authz/targets.ts';
import { externalTrunks } from './trunks.tables.ts';

export const trunkTargets = {
  trunk: targetKind(externalTrunks, { cols: { bps: externalTrunks.bpIds }, readBy: 'getExternalTrunk' }),
} satisfies Record<string, TargetKind>;
