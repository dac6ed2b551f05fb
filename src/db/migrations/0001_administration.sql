CREATE TABLE "company_image_variants" (
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"size" integer NOT NULL,
	"mime" text NOT NULL,
	"data" "bytea" NOT NULL,
	"source_updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "company_image_variants_company_id_kind_size_pk" PRIMARY KEY("company_id","kind","size")
);
--> statement-breakpoint
CREATE TABLE "company_images" (
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "company_images_company_id_kind_pk" PRIMARY KEY("company_id","kind")
);
--> statement-breakpoint
CREATE TABLE "customisation_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"values" jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "join_company_links" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"created_by_admin_id" text,
	"description" text,
	"expiration_date" timestamp with time zone,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"max_number_users" integer,
	"nb_users_registered" integer DEFAULT 0 NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "join_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"email" text NOT NULL,
	"invited_to_be_company_admin" boolean DEFAULT false NOT NULL,
	"invited_to_be_bp_admin" boolean DEFAULT false NOT NULL,
	"invited_to_be_bp_finance" boolean DEFAULT false NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_by_admin_id" text,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"expiration_date" timestamp with time zone NOT NULL,
	"accepted_date" timestamp with time zone,
	"accepted_user_id" text
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"technical_description" text,
	"profile_id" text,
	"profile_name" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"can_be_sold" boolean DEFAULT false NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"business_model" text,
	"is_exclusive" boolean DEFAULT false NOT NULL,
	"is_prepaid" boolean DEFAULT false NOT NULL,
	"prepaid_duration" integer,
	"auto_subscribe" boolean DEFAULT false NOT NULL,
	"group_name" text,
	"erp_reference" text,
	"offer_reference" text,
	"billing_offer_id" text,
	"billing_product_rate_plan_id" text,
	"billing_product_rate_plan_charge_id" text,
	"provisioning_needed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"sync_ongoing" boolean DEFAULT false NOT NULL,
	"max_number_users" integer,
	"updating_max_number_users" integer,
	"purchase_order_number" text,
	"created_by" jsonb,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "companies_name_idx";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_business_model" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_business_type" text[];--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_applicant_number" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_crd_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_has_right_to_connect" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_has_right_to_sell" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_is_contract_accepted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bp_contract_acceptation_info" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "timezone" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "slogan" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "support_url_faq" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "admin_email" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "size" text DEFAULT 'self-employed' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "economic_activity_classification" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "external_reference" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "external_reference2" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "crm_account_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "superadmin_comment" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "private_dc" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "catalog_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_model" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "offer_type" text DEFAULT 'freemium' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "default_license_group" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "default_options_groups" text[];--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "admin_allowed_update_subscriptions_ops" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "admin_has_right_to_update_subscriptions" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "admin_can_set_custom_data" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "send_prepaid_subscriptions_notification" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "alert_notification_reception" text DEFAULT 'disabled' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "alert_notification_sending" text DEFAULT 'disabled' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "use_dial_out_customisation" text DEFAULT 'enabled' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allow_cloud_pbx_recording" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "cloud_pbx_recording_inbound_only" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allow_device_firmware_selection" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "selected_device_firmware" text DEFAULT 'released' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allow_phone_numbers_visibility" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allow_users_select_public_theme" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allow_users_select_theme" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "selected_theme" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "selected_theme_customers" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "avatar_shape" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "company_call_number" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "company_contact_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "custom_data" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "ddi_read_only" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "disable_ccare_admin_access" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "disable_ccare_admin_access_customers" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "disable_ccare_admin_access_resellers" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "gif_enabled" boolean;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "is_centrex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "mobile_permanent_connection_mode" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "user_self_register_allowed_domains" text[];--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "user_self_register_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "visibility" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "visible_by" text[];--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "customisations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "selected_app_customisation_template" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "feature_customisation" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "last_avatar_update_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "last_banner_update_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "created_by_user_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "customisations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "selected_app_customisation_template" text;--> statement-breakpoint
ALTER TABLE "company_images" ADD CONSTRAINT "company_images_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_company_links" ADD CONSTRAINT "join_company_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_invitations" ADD CONSTRAINT "join_invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "join_links_company_idx" ON "join_company_links" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "join_invitations_company_idx" ON "join_invitations" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_default_uq" ON "offers" USING btree ("is_default") WHERE "offers"."is_default";--> statement-breakpoint
CREATE INDEX "subscriptions_company_idx" ON "subscriptions" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "subscriptions_offer_idx" ON "subscriptions" USING btree ("offer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_default_uq" ON "subscriptions" USING btree ("company_id") WHERE "subscriptions"."is_default";--> statement-breakpoint
CREATE INDEX "companies_status_idx" ON "companies" USING btree ("status");--> statement-breakpoint
CREATE INDEX "companies_catalog_idx" ON "companies" USING btree ("catalog_id");--> statement-breakpoint
CREATE INDEX "companies_ext_ref_idx" ON "companies" USING btree ("external_reference");--> statement-breakpoint
CREATE INDEX "companies_crm_idx" ON "companies" USING btree ("crm_account_id");--> statement-breakpoint
CREATE INDEX "companies_name_idx" ON "companies" USING btree (lower("name"),"id");