// The authorisation policy: one entry per operationId, written in the form of the
// specification's role lists ("bp_admin: End Customer companies of which its company is the
// BP"). It is one table, kept in one section per module (src/modules/<module>/<module>.policy.ts)
// and assembled here when the modules are installed (src/modules/index.ts); an operation
// declared twice is refused. `npm run policy` prints it as markdown; test/authz/matrix.test.ts
// derives its cases from it.
import type { PolicyEntry } from './grant.ts';

export const POLICY: Record<string, PolicyEntry> = {};

/** Adds a module's section to the table. */
export function registerPolicy(owner: string, section: Record<string, PolicyEntry>): void {
  for (const [op, entry] of Object.entries(section)) {
    if (POLICY[op]) throw new Error(`policy entry ${op} (${owner}) is declared twice`);
    POLICY[op] = entry;
  }
}
