ALTER TABLE "subscriptions" ADD COLUMN "prepaid_add_on_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "prepaid_add_on_date" timestamp with time zone;