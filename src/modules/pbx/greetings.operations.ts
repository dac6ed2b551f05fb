// Operations of the hosted PBX: (greetings, group voicemail greetings). Filled by the work of issue 26.
import type { AnyOperation } from '../../http/operation.ts';

export const greetingOperations: AnyOperation[] = [];
