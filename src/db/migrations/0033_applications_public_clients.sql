ALTER TABLE "applications" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "secret_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "secret_sealed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "api_key_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "client_type" text DEFAULT 'confidential' NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "built_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_client_type" CHECK ("applications"."client_type" IN ('confidential', 'public'));--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_confidential_secrets" CHECK ("applications"."client_type" = 'public' OR ("applications"."secret_hash" IS NOT NULL AND "applications"."secret_sealed" IS NOT NULL AND "applications"."api_key_hash" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_owner" CHECK ("applications"."built_in" OR "applications"."owner_id" IS NOT NULL);