CREATE TABLE "list_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_last_name_idx";--> statement-breakpoint
DROP INDEX "companies_status_idx";--> statement-breakpoint
CREATE INDEX "applications_owner_idx" ON "applications" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "companies_is_bp_idx" ON "companies" USING btree ("is_bp",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "companies_bp_type_idx" ON "companies" USING btree ("bp_type",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "companies_visibility_idx" ON "companies" USING btree ("visibility",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "companies_ext_ref2_idx" ON "companies" USING btree ("external_reference2");--> statement-breakpoint
CREATE INDEX "companies_template_idx" ON "companies" USING btree ("selected_app_customisation_template");--> statement-breakpoint
CREATE INDEX "companies_bp_business_type_idx" ON "companies" USING gin ("bp_business_type");--> statement-breakpoint
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sites_status_idx" ON "sites" USING btree ("status");--> statement-breakpoint
CREATE INDEX "users_last_name_trgm_idx" ON "users" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_first_name_trgm_idx" ON "users" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_status_idx" ON "companies" USING btree ("status",lower("name"),"id");