import type { AnyOperation } from '../../../http/operation.js';

export const organisationsOperations: AnyOperation[] = [];
