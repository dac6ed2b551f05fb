// Operations of the hosted PBX: (groups, group forwards). Filled by the work of issue 26.
import type { AnyOperation } from '../../http/operation.ts';

export const groupOperations: AnyOperation[] = [];
