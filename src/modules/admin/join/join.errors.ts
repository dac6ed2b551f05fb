// Errors of the Join module (join-company links, self-registration, join invitations): n = 300..399.
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const joinErrors = {
  JOIN_LINK_EXPIRATION_IN_PAST: {
    status: 400,
    code: 400300,
    message: 'Bad Request: expirationDate of a join-company link must be in the future',
  },
  JOIN_INVITATION_NO_ROLE_FOR_COMPANY: {
    status: 400,
    code: 400301,
    message: 'Bad Request: bp_admin and bp_finance invitations are only for BP companies',
  },
  JOIN_LINK_DISABLED: { status: 403, code: 403300, message: 'Forbidden: this join-company link is disabled' },
  JOIN_LINK_EXPIRED: { status: 403, code: 403301, message: 'Forbidden: this join-company link has expired' },
  JOIN_LINK_FULL: {
    status: 403,
    code: 403302,
    message: 'Forbidden: this join-company link has registered its maximum number of users',
  },
  SELF_REGISTER_DISABLED: {
    status: 403,
    code: 403303,
    message: 'Forbidden: self-registration is disabled for this company',
  },
  SELF_REGISTER_DOMAIN_NOT_ALLOWED: {
    status: 403,
    code: 403304,
    message: 'Forbidden: the domain of this e-mail is not allowed to self-register in this company',
  },
  JOIN_INVITATION_EXPIRED: { status: 403, code: 403305, message: 'Forbidden: this join invitation has expired' },
  JOIN_LINK_NOT_FOUND: { status: 404, code: 404300, message: 'Not Found: no such join-company link' },
  JOIN_INVITATION_NOT_FOUND: {
    status: 404,
    code: 404301,
    message: 'Not Found: no such join invitation, or the token is wrong',
  },
  JOIN_INVITATION_USED: {
    status: 409,
    code: 409300,
    message: 'Conflict: this join invitation has already been accepted',
  },
  JOIN_INVITATION_EMAIL_TAKEN: {
    status: 409,
    code: 409301,
    message: 'Conflict: a user with this e-mail already exists',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof joinErrors, true> {}
}
