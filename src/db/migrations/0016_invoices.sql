CREATE TABLE "billed_periods" (
	"company_id" text NOT NULL,
	"billing_period" text NOT NULL,
	"invoice_id" text,
	"billed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billed_periods_company_id_billing_period_pk" PRIMARY KEY("company_id","billing_period")
);
--> statement-breakpoint
CREATE TABLE "invoice_files" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"company_id" text NOT NULL,
	"version_number" integer DEFAULT 1 NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_items" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"position" integer NOT NULL,
	"customer_company_id" text,
	"subscription_name" text NOT NULL,
	"subscription_id" text NOT NULL,
	"charge_description" text NOT NULL,
	"charge_name" text NOT NULL,
	"charge_id" text NOT NULL,
	"product_name" text NOT NULL,
	"unit_of_measure" text NOT NULL,
	"service_start_date" text NOT NULL,
	"service_end_date" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" numeric NOT NULL,
	"charge_amount" numeric NOT NULL,
	"tax_rate" numeric NOT NULL,
	"tax_amount" numeric NOT NULL,
	"charge_date" text NOT NULL,
	"charge_type" text NOT NULL,
	"processing_type" text NOT NULL,
	"calculation" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"billing_period" text NOT NULL,
	"account_id" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"invoice_date" text NOT NULL,
	"due_date" text NOT NULL,
	"invoice_target_date" text NOT NULL,
	"invoice_number" text NOT NULL,
	"sequence" integer NOT NULL,
	"currency" text NOT NULL,
	"amount_without_tax" numeric NOT NULL,
	"tax_amount" numeric NOT NULL,
	"amount" numeric NOT NULL,
	"balance" numeric NOT NULL,
	"credit_balance_adjustment_amount" numeric DEFAULT '0' NOT NULL,
	"created_by" text NOT NULL,
	"status" text DEFAULT 'Posted' NOT NULL,
	"body" text NOT NULL,
	"invoice_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoicing_files" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"billing_period" text NOT NULL,
	"invoice_type" text NOT NULL,
	"file_type" text NOT NULL,
	"path" text NOT NULL,
	"file_name" text NOT NULL,
	"invoice_id" text,
	"invoice_number" text,
	"invoice_creation_date" text NOT NULL,
	"lines" integer NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billed_periods" ADD CONSTRAINT "billed_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_files" ADD CONSTRAINT "invoice_files_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoicing_files" ADD CONSTRAINT "invoicing_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_files_company_idx" ON "invoice_files" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "invoice_files_invoice_idx" ON "invoice_files" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_items_invoice_idx" ON "invoice_items" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_period_uq" ON "invoices" USING btree ("company_id","billing_period");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_number_uq" ON "invoices" USING btree ("company_id","sequence");--> statement-breakpoint
CREATE INDEX "invoices_company_updated_idx" ON "invoices" USING btree ("company_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoicing_files_path_uq" ON "invoicing_files" USING btree ("path");--> statement-breakpoint
CREATE INDEX "invoicing_files_company_idx" ON "invoicing_files" USING btree ("company_id","billing_period");