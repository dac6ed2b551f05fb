// Errors of the hosted PBX: (external trunks), n = 840-849 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const trunkErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof trunkErrors, true> {}
}
