import type { AnyOperation } from '../../../http/operation.js';

export const customisationOperations: AnyOperation[] = [];
