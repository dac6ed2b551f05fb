// Errors of the hosted PBX: (groups, group forwards), n = 850-859 of the pbx module's 800..899.
// A short number out of the plan or already used reuses the subscribers' errors (400820, 409822):
// the same rule, one numbering plan for subscribers and groups (issue 26, pinned details).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const groupErrors = {
  GROUP_SHORT_NUMBER_REQUIRED: {
    status: 400,
    code: 400850,
    message: 'Bad Request: a hunting group needs a shortNumber of the CloudPBX’s numbering plan',
  },
  GROUP_MEMBER_UNKNOWN: {
    status: 400,
    code: 400851,
    message: 'Bad Request: a member, manager or assistant is not a subscriber (phoneNumberId) of this CloudPBX',
  },
  GROUP_TYPE_FIXED: {
    status: 400,
    code: 400852,
    message: 'Bad Request: the type of a group cannot change; delete it and create another',
  },
  GROUP_ROLE_MISMATCH: {
    status: 400,
    code: 400853,
    message: 'Bad Request: members belong to hunting groups, managers and assistants to manager_assistant groups',
  },
  GROUP_FORWARD_TYPE_REQUIRED: {
    status: 400,
    code: 400854,
    message: 'Bad Request: callForwardType (immediate or overflow) is required, in the body or the query',
  },
  GROUP_FORWARD_DESTINATION_REQUIRED: {
    status: 400,
    code: 400855,
    message:
      'Bad Request: the forward’s destination is incomplete (destinationType to activate; number for internalnumber and externalnumber; vcpAutoAttendantId for autoattendant)',
  },
  GROUP_FORWARD_DESTINATION_UNKNOWN: {
    status: 400,
    code: 400856,
    message:
      'Bad Request: the forward’s destination is not of this CloudPBX (an allocated short number, a welcome service)',
  },
  GROUP_FORWARD_NUMBER_INVALID: {
    status: 400,
    code: 400857,
    message: 'Bad Request: number is not a valid phone number in the company’s country',
  },
  GROUP_FORWARD_LOOP: {
    status: 400,
    code: 400858,
    message: 'Bad Request: a group’s forward cannot lead to the group itself',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof groupErrors, true> {}
}
