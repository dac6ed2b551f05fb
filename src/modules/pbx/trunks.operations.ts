// Operations of the hosted PBX: (external trunks). Filled by the work of issue 25.
import type { AnyOperation } from '../../http/operation.ts';

export const trunkOperations: AnyOperation[] = [];
