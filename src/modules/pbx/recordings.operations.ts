// Operations of the hosted PBX: (recordings, retention). Filled by the work of issue 26.
import type { AnyOperation } from '../../http/operation.ts';

export const recordingOperations: AnyOperation[] = [];
