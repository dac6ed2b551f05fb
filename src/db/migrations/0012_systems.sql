CREATE TABLE "system_phone_numbers" (
	"id" text PRIMARY KEY NOT NULL,
	"system_id" text NOT NULL,
	"company_id" text NOT NULL,
	"site_id" text,
	"pbx_id" text NOT NULL,
	"pbx_user_id" text,
	"short_number" text NOT NULL,
	"internal_number" text NOT NULL,
	"voice_mail_number" text,
	"number" text,
	"number_e164" text,
	"country" text,
	"type" text DEFAULT 'work' NOT NULL,
	"device_type" text DEFAULT 'landline' NOT NULL,
	"device_name" text,
	"first_name" text,
	"last_name" text,
	"is_from_system" boolean DEFAULT true NOT NULL,
	"is_monitored" boolean DEFAULT false NOT NULL,
	"is_visible_by_others" boolean DEFAULT true NOT NULL,
	"is_nomadic" boolean DEFAULT false NOT NULL,
	"is_voip_nomadic" boolean DEFAULT false NOT NULL,
	"is_nomadic_mode_initialized" boolean DEFAULT false NOT NULL,
	"user_id" text,
	"jid_im" text,
	"jid_tel" text,
	"jid_password" text,
	"svc_number" text,
	"user_type" text,
	"company_prefix" text
);
--> statement-breakpoint
CREATE TABLE "systems" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"pbx_id" text NOT NULL,
	"country" text,
	"version" text,
	"type" text DEFAULT 'undefined' NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"company_id" text NOT NULL,
	"site_id" text,
	"site_ids" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"bp_id" text,
	"jid_pbxagent" text NOT NULL,
	"jid_pbxagent_password" text NOT NULL,
	"jid_pbxpcg" text NOT NULL,
	"jid_pbxpcg_password" text NOT NULL,
	"server_ping_timeout" integer DEFAULT 120 NOT NULL,
	"pbx_main_bundle_prefix" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"use_pbx_main_bundle_prefix" boolean DEFAULT false NOT NULL,
	"pbx_national_prefix" text,
	"pbx_international_prefix" text,
	"pbx_numbering_translator" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"has_media_pillar" boolean DEFAULT false NOT NULL,
	"is_shared" boolean DEFAULT false NOT NULL,
	"is_centrex" boolean DEFAULT false NOT NULL,
	"is_oxo_managed" boolean DEFAULT false NOT NULL,
	"search_result_order" text[] DEFAULT ARRAY['SVC','LDAP','PBX']::text[] NOT NULL,
	"activating_transaction_id" text,
	"jid_pbxagent_password_activating" text,
	"connection_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"status_updated_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "system_phone_numbers" ADD CONSTRAINT "system_phone_numbers_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_phone_numbers" ADD CONSTRAINT "system_phone_numbers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "systems" ADD CONSTRAINT "systems_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "systems" ADD CONSTRAINT "systems_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "system_phone_numbers_short_uq" ON "system_phone_numbers" USING btree ("system_id","short_number");--> statement-breakpoint
CREATE INDEX "system_phone_numbers_user_idx" ON "system_phone_numbers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "system_phone_numbers_company_idx" ON "system_phone_numbers" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "systems_company_idx" ON "systems" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "systems_site_idx" ON "systems" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "systems_site_ids_idx" ON "systems" USING gin ("site_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "systems_jid_pbxagent_uq" ON "systems" USING btree ("jid_pbxagent");--> statement-breakpoint
CREATE UNIQUE INDEX "systems_jid_pbxpcg_uq" ON "systems" USING btree ("jid_pbxpcg");