DROP INDEX "companies_bp_idx";--> statement-breakpoint
DROP INDEX "companies_org_idx";--> statement-breakpoint
CREATE INDEX "companies_bp_idx" ON "companies" USING btree ("bp_id","status","is_bp",lower("name"),"id","name");--> statement-breakpoint
CREATE INDEX "companies_org_idx" ON "companies" USING btree ("organisation_id",lower("name"),"id");