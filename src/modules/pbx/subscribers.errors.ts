// Errors of the hosted PBX: (subscribers, numbering plan), n = 820-829 of the pbx module's 800..849.
// Refusals the documents give no status for answer 409 (issue 25: duplicates, objects in use).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const subscriberErrors = {
  PBX_SHORT_NUMBER_OUT_OF_PLAN: {
    status: 400,
    code: 400820,
    message:
      'Bad Request: shortNumber is not a number of the CloudPBX’s numbering plan (a prefix followed by exactly numberingDigits digits)',
  },
  PBX_SUBSCRIBER_NO_LICENCE: {
    status: 409,
    code: 409820,
    message:
      'Conflict: the user holds no licence of an active subscription other than the company’s default offer; assign one first',
  },
  PBX_USER_ALREADY_SUBSCRIBER: {
    status: 409,
    code: 409821,
    message: 'Conflict: the user is already a subscriber (a user has at most one)',
  },
  PBX_SHORT_NUMBER_TAKEN: {
    status: 409,
    code: 409822,
    message: 'Conflict: shortNumber is already allocated in the CloudPBX',
  },
  PBX_CLOUDPBX_NOT_EMPTY: {
    status: 409,
    code: 409823,
    message:
      'Conflict: the CloudPBX still has DDI numbers, subscribers or SIP devices; delete them first or send forceDelete=true',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof subscriberErrors, true> {}
}
