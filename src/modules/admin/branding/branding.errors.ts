// Errors of the Branding module (company avatar and banner): n = 400..449.
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const brandingErrors = {
  IMAGE_FORMAT_UNSUPPORTED: {
    status: 400,
    code: 400400,
    message: 'Bad Request: the image must be a readable PNG, JPEG or WebP file, base64-encoded',
  },
  IMAGE_DIMENSIONS_TOO_LARGE: {
    status: 400,
    code: 400401,
    message: 'Bad Request: the image is wider or higher than allowed',
  },
  SYSTEM_COMPANY_IMAGE: {
    status: 403,
    code: 403400,
    message: 'Forbidden: only a superadmin handles the avatar and banner of the Default and Terminated companies',
  },
  IMAGE_NOT_SET: { status: 404, code: 404400, message: 'Not Found: this company has no such image' },
  IMAGE_TOO_LARGE: { status: 413, code: 413400, message: 'Payload Too Large: the image file is larger than allowed' },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof brandingErrors, true> {}
}
