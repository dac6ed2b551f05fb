// Errors of the hosted PBX: (DDI numbers), n = 810-819 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const ddiErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof ddiErrors, true> {}
}
