// Errors of the hosted PBX: (external trunks), n = 840-849 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const trunkErrors = {
  TRUNK_VCP_INSTANCE_UNKNOWN: {
    status: 400,
    code: 400840,
    message: 'Bad Request: vcpInstanceId is not one of the voice platform instances of the service',
  },
  TRUNK_IN_USE: {
    status: 409,
    code: 409840,
    message: 'Conflict: the external trunk is linked to a CloudPBX (unlink it first); nothing was changed',
  },
  PBX_TRUNK_CHANGE_FORBIDDEN: {
    status: 403,
    code: 403840,
    message: 'Forbidden: only superadmin or bp_admin may set or change the externalTrunkId of a CloudPBX',
  },
  PBX_TRUNK_NEEDS_OUTGOING_PREFIX: {
    status: 400,
    code: 400841,
    message:
      'Bad Request: outgoingPrefix is required on a CloudPBX linked to an external trunk (set earlier or in the same request)',
  },
  PBX_CALL_FORKING_NOT_AVAILABLE: {
    status: 400,
    code: 400842,
    message:
      'Bad Request: callForkingToPstnNumber activated or not_activated needs a linked external trunk with callForkingToPstnNumber',
  },
  PBX_ROUTE_INTERNAL_CALLS_NOT_ALLOWED: {
    status: 400,
    code: 400843,
    message: 'Bad Request: routeInternalCallsToPeer needs a linked external trunk with routeInternalCallsToPeerAllowed',
  },
  PBX_TRUNK_NOT_FOUND: {
    status: 400,
    code: 400844,
    message: 'Bad Request: externalTrunkId names no external trunk the caller may link',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof trunkErrors, true> {}
}
