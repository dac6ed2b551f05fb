// The companies the licence, feature and counter tests share: a BP VAD, its BP IR, an End
// Customer of each, and a company outside them.
import { makeCompany } from '../support/factories.ts';
import type { TestApp } from '../support/harness.ts';

export interface BpTree {
  vad: string;
  ir: string;
  ecOfIr: string;
  ecOfVad: string;
  lone: string;
}

export async function makeBpTree(t: TestApp): Promise<BpTree> {
  const vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
  const ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad });
  return {
    vad,
    ir,
    ecOfIr: await makeCompany(t, { bpId: ir }),
    ecOfVad: await makeCompany(t, { bpId: vad }),
    lone: await makeCompany(t),
  };
}
