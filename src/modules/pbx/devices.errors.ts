// Errors of the hosted PBX: (SIP devices, programmable keys), n = 830-839 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const deviceErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof deviceErrors, true> {}
}
