CREATE TABLE "catalog_offers" (
	"catalog_id" text NOT NULL,
	"offer_id" text NOT NULL,
	CONSTRAINT "catalog_offers_catalog_id_offer_id_pk" PRIMARY KEY("catalog_id","offer_id")
);
--> statement-breakpoint
CREATE TABLE "catalogs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"last_update_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "is_bundle" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "has_conference" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "has_voice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "prices" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "features" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "last_update_date" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_offers" ADD CONSTRAINT "catalog_offers_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_offers" ADD CONSTRAINT "catalog_offers_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_offers_offer_idx" ON "catalog_offers" USING btree ("offer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "catalogs_default_uq" ON "catalogs" USING btree ("is_default") WHERE "catalogs"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "catalogs_name_uq" ON "catalogs" USING btree (lower("name"));--> statement-breakpoint
-- Companies may already name catalogs (catalogId was free text until now): each such id becomes a
-- catalog of that id, so that no company loses its catalog and the foreign key holds.
INSERT INTO "catalogs" ("id", "name") SELECT DISTINCT "catalog_id", 'Catalog ' || "catalog_id" FROM "companies" WHERE "catalog_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_name_idx" ON "offers" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "offers_rate_plan_idx" ON "offers" USING btree ("billing_product_rate_plan_id");