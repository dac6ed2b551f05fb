// The face of the customisation module (docs/architecture.md, "Modules"): what other modules use
// of customisation templates.
import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { customisationTemplates } from './customisation.tables.ts';

/**
 * The customisation templates of these names (case-insensitive), by lower-case name (the CSV
 * import's selectedAppCustomisationTemplateName: the template a user gets, as applyTemplate gives it).
 */
export async function templatesByName(
  exec: Executor,
  names: readonly string[],
): Promise<Map<string, { id: string; name: string; values: unknown }>> {
  const out = new Map<string, { id: string; name: string; values: unknown }>();
  if (names.length === 0) return out;
  const rows = await exec
    .select({ id: customisationTemplates.id, name: customisationTemplates.name, values: customisationTemplates.values })
    .from(customisationTemplates)
    .where(sql`lower(${customisationTemplates.name}) = ANY(${sql.param(names.map((n) => n.toLowerCase()))}::text[])`);
  for (const r of rows) out.set(r.name.toLowerCase(), r);
  return out;
}

/** The names of the templates of these ids (the bulk import's export: selectedAppCustomisationTemplateName). */
export async function templateNamesByIds(exec: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await exec
    .select({ id: customisationTemplates.id, name: customisationTemplates.name })
    .from(customisationTemplates)
    .where(inArray(customisationTemplates.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}
