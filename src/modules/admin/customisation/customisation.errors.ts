// Errors of the Customisation module (customisation keys, templates, feature customisation, service description): n = 450..499.
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const customisationErrors = {
  CUSTOMISATION_TARGET_REQUIRED: {
    status: 400,
    code: 400450,
    message: 'Bad Request: give either companyId or userId, not both',
  },
  CUSTOMISATION_TEMPLATE_REQUIRED: {
    status: 400,
    code: 400451,
    message: 'Bad Request: give either templateId or templateName, not both',
  },
  CUSTOMISATION_TEMPLATE_NOT_FOUND: { status: 404, code: 404450, message: 'Not Found: no such customisation template' },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof customisationErrors, true> {}
}
