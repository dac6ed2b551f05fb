// Policy of the background-work listings: operators only.
import { grant, grants, type PolicyEntry } from '../../../authz/grant.ts';

const operators = [grant('superadmin', 'any')];

export const backgroundPolicy: Record<string, PolicyEntry> = {
  getBackgroundSummary: grants(operators),
  listBackgroundJobs: grants(operators),
  listBackgroundOutbox: grants(operators),
};
