// Operations of the hosted PBX: (welcome services, office hours). Filled by the work of issue 26.
import type { AnyOperation } from '../../http/operation.ts';

export const ivrOperations: AnyOperation[] = [];
