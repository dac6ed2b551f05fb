// The authorisation policy: one entry per operationId, written in the form of the
// specification's role lists ("bp_admin: End Customer companies of which its company is the
// BP"). It is one table, kept in one section per module under ./policy/ so that each reads
// beside its module. `npm run policy` prints it as markdown; test/authz/matrix.test.ts derives
// one case per operation x role x (in scope, out of scope) from it.
import type { PolicyEntry } from './grant.js';
import { authenticationPolicy } from './policy/authentication.js';
import { applicationsPolicy } from './policy/applications.js';
import { usersPolicy } from './policy/users.js';
import { companiesPolicy } from './policy/companies.js';
import { organisationsPolicy } from './policy/organisations.js';
import { sitesPolicy } from './policy/sites.js';
import { joinPolicy } from './policy/join.js';
import { brandingPolicy } from './policy/branding.js';
import { customisationPolicy } from './policy/customisation.js';

const sections: Record<string, PolicyEntry>[] = [
  authenticationPolicy,
  applicationsPolicy,
  usersPolicy,
  companiesPolicy,
  organisationsPolicy,
  sitesPolicy,
  joinPolicy,
  brandingPolicy,
  customisationPolicy,
];

function merge(parts: Record<string, PolicyEntry>[]): Record<string, PolicyEntry> {
  const out: Record<string, PolicyEntry> = {};
  for (const part of parts) {
    for (const [op, entry] of Object.entries(part)) {
      if (out[op]) throw new Error(`policy entry ${op} is declared twice`);
      out[op] = entry;
    }
  }
  return out;
}

export const POLICY: Record<string, PolicyEntry> = merge(sections);
