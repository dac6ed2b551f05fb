// The face of the customisation module (docs/architecture.md, "Modules"): what other modules use
// of customisation templates.
import { inArray } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { customisationTemplates } from './customisation.tables.ts';

/** The names of the templates of these ids (the bulk import's export: selectedAppCustomisationTemplateName). */
export async function templateNamesByIds(exec: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await exec
    .select({ id: customisationTemplates.id, name: customisationTemplates.name })
    .from(customisationTemplates)
    .where(inArray(customisationTemplates.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}
