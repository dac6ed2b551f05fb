import type { AnyOperation } from '../../../http/operation.js';

export const companiesOperations: AnyOperation[] = [];
