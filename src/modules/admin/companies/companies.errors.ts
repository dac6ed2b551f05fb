// Errors of the Companies module (document 3, Companies): n = 100..199.
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const companiesErrors = {
  COMPANY_COUNTRY_UNKNOWN: {
    status: 400,
    code: 400101,
    message: 'Bad Request: country must be an ISO 3166-1 alpha-3 code of GET /enduser/v1.0/countries',
  },
  COMPANY_STATE_INVALID: {
    status: 400,
    code: 400102,
    message:
      'Bad Request: state is required for USA (a US state code) and CAN (a province code), and must be empty for other countries',
  },
  COMPANY_DATA_LOCATION_FIXED: {
    status: 400,
    code: 400103,
    message: 'Bad Request: the country (data location) of a company cannot change after creation',
  },
  COMPANY_CREATE_ONLY_FIELD: { status: 400, code: 400104, message: 'Bad Request: privateDC is set at creation only' },
  COMPANY_NOT_BP: {
    status: 400,
    code: 400105,
    message: 'Bad Request: allowPhoneNumbersVisibility is for BP companies only',
  },
  COMPANY_BP_INVALID: {
    status: 400,
    code: 400106,
    message: 'Bad Request: bpId must name a BP company (isBP true), other than the company itself',
  },
  COMPANY_STATUS_NOT_SETTABLE: {
    status: 400,
    code: 400107,
    message: 'Bad Request: status terminated is reached by deleting the company',
  },
  COMPANY_OWN_NOT_FROM_DEFAULT: {
    status: 403,
    code: 403101,
    message: 'Forbidden: only users of the Default company create their own company',
  },
  COMPANY_SUPERADMIN_FIELD: {
    status: 403,
    code: 403102,
    message: 'Forbidden: only a superadmin sets these company fields',
  },
  COMPANY_SYSTEM_PROTECTED: {
    status: 403,
    code: 403103,
    message: 'Forbidden: the Default and Terminated companies cannot be deleted',
  },
  COMPANY_CUSTOM_DATA_NOT_ALLOWED: {
    status: 403,
    code: 403104,
    message: 'Forbidden: adminCanSetCustomData is false for this company',
  },
  COMPANY_NAME_RESERVED: {
    status: 409,
    code: 409101,
    message: 'Conflict: the names Default and Terminated are reserved',
  },
  COMPANY_SYSTEM_RENAME: {
    status: 409,
    code: 409102,
    message: 'Conflict: the Default and Terminated companies cannot be renamed',
  },
  COMPANY_CENTREX_HAS_SITES: {
    status: 409,
    code: 409103,
    message: 'Conflict: isCentrex cannot change once sites exist for the company',
  },
  COMPANY_HAS_SUBSCRIPTIONS: {
    status: 409,
    code: 409104,
    message: 'Conflict: the company still has active subscriptions other than the default one',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof companiesErrors, true> {}
}
