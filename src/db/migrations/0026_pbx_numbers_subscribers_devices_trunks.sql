CREATE TABLE "pbx_ddis" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"number" text NOT NULL,
	"number_e164" text NOT NULL,
	"country" text,
	"type" text DEFAULT 'work' NOT NULL,
	"device_type" text DEFAULT 'landline' NOT NULL,
	"is_cloudpbx_default" boolean DEFAULT false NOT NULL,
	"is_monitored" boolean DEFAULT false NOT NULL,
	"is_visible_by_others" boolean DEFAULT true NOT NULL,
	"user_id" text,
	"jid_im" text,
	"jid_tel" text,
	"jid_password" text,
	"vcp_group_id" text,
	"vcp_ivr_id" text,
	"vcp_auto_attendant_id" text,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_devices" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"description" text NOT NULL,
	"mac_address" text,
	"device_type_id" integer NOT NULL,
	"subscriber_id" text,
	"sip_username" text NOT NULL,
	"admin_password" text NOT NULL,
	"debug_session_end_date" timestamp with time zone,
	"reset_date" timestamp with time zone,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_programmable_keys" (
	"device_id" text NOT NULL,
	"key_num" integer NOT NULL,
	"key_type" text NOT NULL,
	"key_owner" text DEFAULT 'admin' NOT NULL,
	"user_id" text,
	"phone_number_id" text,
	"display_name" text,
	"number" text,
	CONSTRAINT "pbx_programmable_keys_device_id_key_num_pk" PRIMARY KEY("device_id","key_num")
);
--> statement-breakpoint
CREATE TABLE "pbx_subscribers" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"user_id" text NOT NULL,
	"short_number" text NOT NULL,
	"short_number_value" integer NOT NULL,
	"vcp_subscriber_id" text NOT NULL,
	"custom_sip_header_1" text,
	"custom_sip_header_2" text,
	"barring_permission" text DEFAULT 'int_nat_local' NOT NULL,
	"barring_restriction" text DEFAULT 'default' NOT NULL,
	"external_call_forward" text DEFAULT 'company_policy' NOT NULL,
	"overflow" jsonb DEFAULT '{"value":"default","unavailableOverflow":"default","noReplyDelay":20}'::jsonb NOT NULL,
	"recording_profile" text DEFAULT 'none' NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_external_trunks" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"custom_sip_header_1" text,
	"custom_sip_header_2" text,
	"peer_authentication_realm" text,
	"bp_ids" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"peering_group_id" integer,
	"reseller_id" integer,
	"vcp_instance_id" text NOT NULL,
	"trunk_type" text NOT NULL,
	"route_internal_calls_to_peer_allowed" boolean DEFAULT false NOT NULL,
	"call_forking_to_pstn_number" boolean DEFAULT false NOT NULL,
	"load_balancer_options" jsonb,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pbx_cloudpbxs" ADD COLUMN "external_trunk_id" text;--> statement-breakpoint
ALTER TABLE "pbx_ddis" ADD CONSTRAINT "pbx_ddis_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ddis" ADD CONSTRAINT "pbx_ddis_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_devices" ADD CONSTRAINT "pbx_devices_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_devices" ADD CONSTRAINT "pbx_devices_subscriber_id_pbx_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."pbx_subscribers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_programmable_keys" ADD CONSTRAINT "pbx_programmable_keys_device_id_pbx_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."pbx_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_subscribers" ADD CONSTRAINT "pbx_subscribers_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_subscribers" ADD CONSTRAINT "pbx_subscribers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_ddis_number_e164_uq" ON "pbx_ddis" USING btree ("number_e164");--> statement-breakpoint
CREATE INDEX "pbx_ddis_pbx_number_idx" ON "pbx_ddis" USING btree ("cloudpbx_id","number");--> statement-breakpoint
CREATE INDEX "pbx_ddis_user_idx" ON "pbx_ddis" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_ddis_default_uq" ON "pbx_ddis" USING btree ("cloudpbx_id") WHERE "pbx_ddis"."is_cloudpbx_default";--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_devices_mac_uq" ON "pbx_devices" USING btree ("mac_address") WHERE "pbx_devices"."mac_address" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_devices_sip_username_uq" ON "pbx_devices" USING btree ("sip_username");--> statement-breakpoint
CREATE INDEX "pbx_devices_pbx_mac_idx" ON "pbx_devices" USING btree ("cloudpbx_id","mac_address");--> statement-breakpoint
CREATE INDEX "pbx_devices_subscriber_idx" ON "pbx_devices" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_subscribers_user_uq" ON "pbx_subscribers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_subscribers_short_number_uq" ON "pbx_subscribers" USING btree ("cloudpbx_id","short_number_value");--> statement-breakpoint
ALTER TABLE "pbx_cloudpbxs" ADD CONSTRAINT "pbx_cloudpbxs_external_trunk_id_pbx_external_trunks_id_fk" FOREIGN KEY ("external_trunk_id") REFERENCES "public"."pbx_external_trunks"("id") ON DELETE restrict ON UPDATE no action;