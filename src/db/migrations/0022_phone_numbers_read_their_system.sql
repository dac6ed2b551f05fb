DROP INDEX "system_phone_numbers_company_idx";--> statement-breakpoint
ALTER TABLE "system_phone_numbers" DROP COLUMN "company_id";--> statement-breakpoint
ALTER TABLE "system_phone_numbers" DROP COLUMN "site_id";