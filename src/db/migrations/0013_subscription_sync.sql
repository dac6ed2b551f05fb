ALTER TABLE "subscriptions" ADD COLUMN "auto_renew" boolean;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "renewal_term" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "renewal_term_option" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "prepaid_duration" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "prepaid_renewal_option" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "expiration_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "prepaid_add_on_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "prepaid_add_on_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "bs_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "billing_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "provisioning" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "sync_error" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "sync_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "last_update_date" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "termination_date" timestamp with time zone;