// Errors of the hosted PBX: (welcome services, office hours), n = 880-889 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const ivrErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof ivrErrors, true> {}
}
