// Errors of the pbx module (document 2, CloudPBX): n = 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const pbxErrors = {
  PBX_NUMBERING_DIGITS_REQUIRED: {
    status: 400,
    code: 400800,
    message:
      'Bad Request: numberingDigits is required when numberingPrefixes (or numberingPrefix) is given and not empty',
  },
  PBX_COMPANY_HAS_CLOUDPBX: {
    status: 409,
    code: 409800,
    message: 'Conflict: the company already has a CloudPBX (a company has at most one)',
  },
  PBX_PATTERN_INVALID: {
    status: 400,
    code: 400801,
    message: 'Bad Request: a pattern of the custom numbers restriction is not a valid regular expression',
  },
  PBX_VOICE_PLATFORM_FAILED: {
    status: 502,
    code: 502800,
    message: 'Bad Gateway: the voice platform refused or did not answer; nothing was changed',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof pbxErrors, true> {}
}
