// Sample requests of the background-work listings, for the authorisation matrix (see ./types.ts).
import type { Sample } from './types.ts';

const P = '/api/svc/admin/v1.0/background';

export const backgroundSamples: Record<string, Sample> = {
  getBackgroundSummary: { type: 'targetless', request: () => ({ method: 'GET', url: P }) },
  listBackgroundJobs: { type: 'targetless', request: () => ({ method: 'GET', url: `${P}/jobs?state=failed` }) },
  listBackgroundOutbox: { type: 'targetless', request: () => ({ method: 'GET', url: `${P}/outbox?state=pending` }) },
};
