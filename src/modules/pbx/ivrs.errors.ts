// Errors of the hosted PBX: (welcome services, office hours), n = 880-889 of the pbx module's 800..899.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const ivrErrors = {
  IVR_OFFICE_HOURS_INVALID: {
    status: 400,
    code: 400880,
    message:
      'Bad Request: the office hours are not valid (document 2: seven day arrays from Sunday, periods ["HH:MM", "HH:MM"] or ["0"], exceptions {year, month, mday, periods, open}); errorDetails.field names the day or exception',
  },
  IVR_DESTINATION_INVALID: {
    status: 400,
    code: 400881,
    message:
      'Bad Request: the overflow destination does not exist in this CloudPBX or is not of its type (errorDetails.field names the overflow)',
  },
  IVR_NOT_A_WELCOME: {
    status: 400,
    code: 400882,
    message: 'Bad Request: welcomeId must name a welcome of this CloudPBX, not a welcome service',
  },
  IVR_EXTERNAL_NUMBER_TAKEN: {
    status: 409,
    code: 409880,
    message:
      'Conflict: the DDI number is already assigned (to a user, group, another welcome service or an auto attendant)',
  },
  IVR_WELCOME_IN_USE: {
    status: 409,
    code: 409881,
    message:
      'Conflict: the welcome is used by welcome services (errorDetails.welcomeServiceIds); change or delete them first',
  },
  IVR_HOURS_OF_WELCOME: {
    status: 409,
    code: 409882,
    message: 'Conflict: a welcome service’s office hours are its welcome’s: update them on the welcome (welcomeId)',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof ivrErrors, true> {}
}
