// Operations of the hosted PBX: (DDI numbers). Filled by the work of issue 25.
import type { AnyOperation } from '../../http/operation.ts';

export const ddiOperations: AnyOperation[] = [];
