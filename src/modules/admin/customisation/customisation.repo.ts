// SQL of the customisation reads that come with the authorising statement (ctx.extras,
// src/http/operation.ts): a company's customisation reads answer in one round trip.
import { sql } from 'drizzle-orm';

/** The template the company applied last, `{id, name}` (name null when the template is gone), or null. */
const templateRef = sql`CASE WHEN t.selected_app_customisation_template IS NULL THEN NULL
  ELSE json_build_object('id', t.selected_app_customisation_template,
    'name', (SELECT ct.name FROM customisation_templates ct WHERE ct.id = t.selected_app_customisation_template)) END`;

export const FEATURE_CUSTOMISATION_EXTRAS = { templateRef };

export const CUSTOM_ELEMENTS_EXTRAS = {
  templateRef,
  templates: sql`(SELECT COALESCE(json_agg(json_build_object('id', ct.id, 'name', ct.name, 'isDefault', ct.is_default) ORDER BY ct.name, ct.id), '[]'::json)
    FROM customisation_templates ct)`,
};
