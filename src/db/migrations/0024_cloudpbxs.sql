CREATE TABLE "pbx_cloudpbxs" (
	"id" text PRIMARY KEY NOT NULL,
	"vcp_instance_id" text NOT NULL,
	"vcp_tenant_id" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"numbering_prefixes" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"numbering_digits" integer,
	"outgoing_prefix" text,
	"custom_sip_header_1" text,
	"custom_sip_header_2" text,
	"overflow" jsonb DEFAULT '{"activate":false,"noReplyDelay":20,"activateUnavailableOverflow":false}'::jsonb NOT NULL,
	"barring_options" jsonb DEFAULT '{"permissions":"int_nat_local","restrictions":"no_restriction"}'::jsonb NOT NULL,
	"cli_options" jsonb DEFAULT '{"policy":"installation_ddi_number","userCanManageItsCli":false,"companyNumberCanBeSelectedByUserAsCli":false}'::jsonb NOT NULL,
	"emergency_options" jsonb DEFAULT '{"callAuthorizationWithSoftPhone":false,"emergencyGroupActivated":false}'::jsonb NOT NULL,
	"call_forward_options" jsonb DEFAULT '{"externalCallForward":"authorized"}'::jsonb NOT NULL,
	"peer_authentication_options" jsonb,
	"allow_cloudpbx_recording" boolean DEFAULT false NOT NULL,
	"route_internal_calls_to_peer" boolean DEFAULT false NOT NULL,
	"call_forking_to_pstn_number" text DEFAULT 'not_available' NOT NULL,
	"monoline_incoming_mode" boolean DEFAULT false NOT NULL,
	"emulated_ring_back_tone" boolean DEFAULT false NOT NULL,
	"installation_number" text,
	"installation_number_id" text,
	"domain_name" text,
	"deleting_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "pbx_cloudpbxs" ADD CONSTRAINT "pbx_cloudpbxs_id_systems_id_fk" FOREIGN KEY ("id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;