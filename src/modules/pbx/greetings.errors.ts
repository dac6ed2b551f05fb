// Errors of the hosted PBX: (greetings, group voicemail greetings), n = 860-869 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const greetingErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof greetingErrors, true> {}
}
