// Errors of the hosted PBX: (DDI numbers), n = 810-819 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const ddiErrors = {
  DDI_NUMBER_INVALID: {
    status: 400,
    code: 400810,
    message: 'Bad Request: number is not a valid phone number in the country of the company of the CloudPBX',
  },
  DDI_NUMBER_TAKEN: {
    status: 409,
    code: 409810,
    message: 'Conflict: this number (whatever its spelling) is already a DDI number of the platform',
  },
  DDI_DEFAULT_NOT_LAST: {
    status: 409,
    code: 409811,
    message:
      'Conflict: the default DDI number of a CloudPBX can be deleted only when it is the last one; make another the default first',
  },
  DDI_USER_NOT_SUBSCRIBER: {
    status: 409,
    code: 409812,
    message: 'Conflict: the user is not a subscriber of this CloudPBX; make him one before assigning him a DDI number',
  },
  DDI_ALREADY_ASSIGNED: {
    status: 409,
    code: 409813,
    message: 'Conflict: the DDI number is assigned to another user (or group, welcome service, auto attendant)',
  },
  DDI_NOT_ASSIGNED_TO_USER: {
    status: 409,
    code: 409814,
    message: 'Conflict: the DDI number is assigned to another user than the one of the path',
  },
  DDI_READ_ONLY: {
    status: 403,
    code: 403810,
    message: 'Forbidden: the VAD has made the DDI numbers read-only for the bp_admin of this IR company (ddiReadOnly)',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof ddiErrors, true> {}
}
