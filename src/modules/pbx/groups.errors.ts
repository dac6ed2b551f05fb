// Errors of the hosted PBX: (groups, group forwards), n = 850-859 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const groupErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof groupErrors, true> {}
}
