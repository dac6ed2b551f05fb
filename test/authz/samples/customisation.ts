// Sample requests of the customisation module, for the authorisation matrix (see ./types.ts).
import type { Req, Sample } from './types.ts';

const A = '/api/svc/admin/v1.0';
const FULL = '5ee7c0570000000000000001';

export const customisationSamples: Record<string, Sample> = {
  getServiceDescription: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${A}/companies/${id}/service-description` }),
  },
  listCustomElements: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${A}/companies/${id}/custom-elements` }),
  },
  getFeatureCustomisation: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${A}/companies/${id}/app-feature-customisation` }),
  },
  setFeatureCustomisation: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id, { n }): Req => ({
      method: 'PUT',
      url: `${A}/companies/${id}/app-feature-customisation`,
      payload: { useGifCustomisation: n % 2 ? 'enabled' : 'disabled' },
    }),
  },
  listCustomisationTemplates: {
    type: 'authenticated',
    request: (): Req => ({ method: 'GET', url: `${A}/customisations/templates` }),
  },
  getCustomisationTemplate: {
    type: 'authenticated',
    request: (): Req => ({ method: 'GET', url: `${A}/customisations/templates/${FULL}` }),
  },
  applyCustomisationTemplate: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id): Req => ({
      method: 'POST',
      url: `${A}/customisations/templates/apply`,
      payload: { templateId: FULL, companyId: id },
    }),
    // With a userId the target is the caller's own company.
    second: {
      user: {
        mainAt: 'home',
        request: (_id, userId): Req => ({
          method: 'POST',
          url: `${A}/customisations/templates/apply`,
          payload: { templateId: FULL, userId },
        }),
      },
    },
  },
};
