// Errors of the hosted PBX: (recordings, retention), n = 870-879 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const recordingErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof recordingErrors, true> {}
}
