// The authorisation policy: one entry per operationId, written in the form of the
// specification's role lists ("bp_admin: End Customer companies of which its company is the
// BP"). It is one table, kept in one section per module under ./policy/ so that each reads
// beside its module. `npm run policy` prints it as markdown; test/authz/matrix.test.ts derives
// one case per operation x role x (in scope, out of scope) from it.
import type { PolicyEntry } from './grant.ts';
import { authenticationPolicy } from './policy/authentication.ts';
import { applicationsPolicy } from './policy/applications.ts';
import { usersPolicy } from './policy/users.ts';
import { companiesPolicy } from './policy/companies.ts';
import { organisationsPolicy } from './policy/organisations.ts';
import { sitesPolicy } from './policy/sites.ts';
import { joinPolicy } from './policy/join.ts';
import { brandingPolicy } from './policy/branding.ts';
import { customisationPolicy } from './policy/customisation.ts';
import { backgroundPolicy } from './policy/background.ts';

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
  backgroundPolicy,
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
