// Operations of the hosted PBX: (subscribers, numbering plan). Filled by the work of issue 25.
import type { AnyOperation } from '../../http/operation.ts';

export const subscriberOperations: AnyOperation[] = [];
