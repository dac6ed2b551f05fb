// Errors of the hosted PBX: (subscribers, numbering plan), n = 820-829 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const subscriberErrors = {} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof subscriberErrors, true> {}
}
