// Errors of the systems module (document 3, Systems and sites, Phone numbers of a system;
// document 1, Gateway notifications): n = 550..599, and the document's own 43709 and 409553.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const systemsErrors = {
  SYSTEM_CENTREX_MISMATCH: {
    status: 409,
    code: 43709,
    message:
      'Conflict: a site of a multi-tenant (CENTREX) company links only one system with isCentrex true, and a system with isCentrex true only sites of multi-tenant companies',
  },
  SYSTEM_CENTREX_READ_ONLY: {
    status: 400,
    code: 400550,
    message:
      'Bad Request: isCentrex is set at the creation of a system and cannot change; unlink and link the sites instead',
  },
  SYSTEM_LAST_SITE: {
    status: 409,
    code: 409550,
    message:
      'Conflict: the last site can be detached only from a multi-company (isShared) or multi-tenant (isCentrex) system',
  },
  SYSTEM_NOT_SHARED: {
    status: 409,
    code: 409551,
    message: 'Conflict: a system that is neither isShared nor isCentrex links only sites of its own company',
  },
  SYSTEM_CLOUD_PBX_TYPE_READ_ONLY: {
    status: 400,
    code: 400553,
    message: 'Bad Request: the type of a CloudPBX (cloud_pbx) cannot change',
  },
  SYSTEM_IS_CLOUD_PBX: {
    status: 409,
    code: 409552,
    message: 'Conflict: the system is a CloudPBX; delete it with DELETE /vcpprovisioning/v1.0/cloudpbxs/{systemId}',
  },
  PHONE_NUMBER_FIELD_READ_ONLY: {
    status: 400,
    code: 400551,
    message: 'Bad Request: pbxId, systemId, shortNumber and pbxUserId of a phone number cannot change',
  },
  PHONE_NUMBER_E164_UNCOMPUTABLE: {
    status: 400,
    code: 400552,
    message: 'Bad Request: no E.164 number can be computed from this number and the country of the company',
  },
  PHONE_NUMBER_INTERNAL_READ_ONLY: {
    status: 409,
    code: 409553,
    message: 'Conflict: internalNumber is read-only on a multi-tenant system',
  },
  GATEWAY_REFUSED: {
    status: 502,
    code: 502550,
    message: 'Bad Gateway: the gateway of the system refused the change; nothing was changed',
  },
  XMPP_ACCOUNT_FAILED: {
    status: 502,
    code: 502551,
    message: "Bad Gateway: the XMPP server refused a change of the system's accounts; nothing was changed",
  },
  GATEWAY_TIMEOUT: {
    status: 504,
    code: 504550,
    message: 'Gateway Timeout: the gateway of the system did not acknowledge in time; nothing was changed',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof systemsErrors, true> {}
}
