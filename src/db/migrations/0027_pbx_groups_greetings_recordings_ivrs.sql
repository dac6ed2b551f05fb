CREATE TABLE "pbx_greeting_files" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"scope" text NOT NULL,
	"scope_id" text DEFAULT '' NOT NULL,
	"greeting_id" text NOT NULL,
	"file_name" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"storage_key" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"duration" double precision NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_group_greetings" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"type" text NOT NULL,
	"storage_key" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"duration" double precision NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_group_forwards" (
	"group_id" text NOT NULL,
	"type" text NOT NULL,
	"activate" boolean DEFAULT false NOT NULL,
	"destination_type" text,
	"number" text,
	"no_reply_delay" integer,
	"target_subscriber_id" text,
	"target_group_id" text,
	"vcp_auto_attendant_id" text,
	CONSTRAINT "pbx_group_forwards_group_id_type_pk" PRIMARY KEY("group_id","type")
);
--> statement-breakpoint
CREATE TABLE "pbx_group_members" (
	"group_id" text NOT NULL,
	"subscriber_id" text NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "pbx_group_members_group_id_role_subscriber_id_pk" PRIMARY KEY("group_id","role","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "pbx_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"short_number" text,
	"short_number_value" integer,
	"policy" text DEFAULT 'parallel' NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_ivrs" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"timezone" text,
	"is_default_ivr" boolean DEFAULT false NOT NULL,
	"office_hours" jsonb,
	"welcome_id" text,
	"open_hours_overflow" jsonb,
	"closed_hours_overflow" jsonb,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pbx_recordings" (
	"id" text PRIMARY KEY NOT NULL,
	"cloudpbx_id" text NOT NULL,
	"date" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"other_number" text NOT NULL,
	"recorded_user_id" text,
	"recorded_group_id" text,
	"recorded_phone_number_id" text,
	"recorded_name" text DEFAULT '' NOT NULL,
	"recorded_number" text DEFAULT '' NOT NULL,
	"storage_key" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"duration" double precision NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pbx_programmable_keys" ADD COLUMN "service_group_id" text;--> statement-breakpoint
ALTER TABLE "pbx_cloudpbxs" ADD COLUMN "announcement_profile" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "pbx_greeting_files" ADD CONSTRAINT "pbx_greeting_files_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_greetings" ADD CONSTRAINT "pbx_group_greetings_group_id_pbx_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_forwards" ADD CONSTRAINT "pbx_group_forwards_group_id_pbx_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_forwards" ADD CONSTRAINT "pbx_group_forwards_target_subscriber_id_pbx_subscribers_id_fk" FOREIGN KEY ("target_subscriber_id") REFERENCES "public"."pbx_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_forwards" ADD CONSTRAINT "pbx_group_forwards_target_group_id_pbx_groups_id_fk" FOREIGN KEY ("target_group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_forwards" ADD CONSTRAINT "pbx_group_forwards_vcp_auto_attendant_id_pbx_ivrs_id_fk" FOREIGN KEY ("vcp_auto_attendant_id") REFERENCES "public"."pbx_ivrs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_members" ADD CONSTRAINT "pbx_group_members_group_id_pbx_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_group_members" ADD CONSTRAINT "pbx_group_members_subscriber_id_pbx_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."pbx_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_groups" ADD CONSTRAINT "pbx_groups_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ivrs" ADD CONSTRAINT "pbx_ivrs_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ivrs" ADD CONSTRAINT "pbx_ivrs_welcome_id_pbx_ivrs_id_fk" FOREIGN KEY ("welcome_id") REFERENCES "public"."pbx_ivrs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_recordings" ADD CONSTRAINT "pbx_recordings_cloudpbx_id_pbx_cloudpbxs_id_fk" FOREIGN KEY ("cloudpbx_id") REFERENCES "public"."pbx_cloudpbxs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pbx_greeting_files_scope_idx" ON "pbx_greeting_files" USING btree ("cloudpbx_id","scope","scope_id","greeting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_greeting_files_active_uq" ON "pbx_greeting_files" USING btree ("cloudpbx_id","scope","scope_id","greeting_id") WHERE "pbx_greeting_files"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_group_greetings_type_uq" ON "pbx_group_greetings" USING btree ("group_id","type");--> statement-breakpoint
CREATE INDEX "pbx_group_forwards_subscriber_idx" ON "pbx_group_forwards" USING btree ("target_subscriber_id");--> statement-breakpoint
CREATE INDEX "pbx_group_forwards_group_idx" ON "pbx_group_forwards" USING btree ("target_group_id");--> statement-breakpoint
CREATE INDEX "pbx_group_forwards_ivr_idx" ON "pbx_group_forwards" USING btree ("vcp_auto_attendant_id");--> statement-breakpoint
CREATE INDEX "pbx_group_members_subscriber_idx" ON "pbx_group_members" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pbx_groups_short_number_uq" ON "pbx_groups" USING btree ("cloudpbx_id","short_number_value") WHERE "pbx_groups"."short_number_value" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "pbx_groups_pbx_name_idx" ON "pbx_groups" USING btree ("cloudpbx_id","name");--> statement-breakpoint
CREATE INDEX "pbx_ivrs_pbx_kind_idx" ON "pbx_ivrs" USING btree ("cloudpbx_id","kind","name");--> statement-breakpoint
CREATE INDEX "pbx_ivrs_welcome_idx" ON "pbx_ivrs" USING btree ("welcome_id");--> statement-breakpoint
CREATE INDEX "pbx_recordings_pbx_date_idx" ON "pbx_recordings" USING btree ("cloudpbx_id","date","id");--> statement-breakpoint
CREATE INDEX "pbx_recordings_date_idx" ON "pbx_recordings" USING btree ("date");--> statement-breakpoint
ALTER TABLE "pbx_ddis" ADD CONSTRAINT "pbx_ddis_vcp_group_id_pbx_groups_id_fk" FOREIGN KEY ("vcp_group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ddis" ADD CONSTRAINT "pbx_ddis_vcp_ivr_id_pbx_ivrs_id_fk" FOREIGN KEY ("vcp_ivr_id") REFERENCES "public"."pbx_ivrs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_programmable_keys" ADD CONSTRAINT "pbx_programmable_keys_service_group_id_pbx_groups_id_fk" FOREIGN KEY ("service_group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE cascade ON UPDATE no action;