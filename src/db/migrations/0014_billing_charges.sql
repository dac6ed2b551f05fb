CREATE TABLE "billing_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"company_id" text NOT NULL,
	"invoiced_company_id" text NOT NULL,
	"currency" text NOT NULL,
	"change_date" date NOT NULL,
	"items" jsonb NOT NULL,
	"invoice_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "billing_charges_invoice_idx" ON "billing_charges" USING btree ("invoiced_company_id","invoice_id");--> statement-breakpoint
CREATE INDEX "billing_charges_subscription_idx" ON "billing_charges" USING btree ("subscription_id");