import type { AnyOperation } from '../../../http/operation.js';

export const sitesOperations: AnyOperation[] = [];
