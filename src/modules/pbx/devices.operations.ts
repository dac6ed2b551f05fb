// Operations of the hosted PBX: (SIP devices, programmable keys). Filled by the work of issue 25.
import type { AnyOperation } from '../../http/operation.ts';

export const deviceOperations: AnyOperation[] = [];
