CREATE TABLE "company_image_chunks" (
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"written_at" timestamp with time zone NOT NULL,
	CONSTRAINT "company_image_chunks_company_id_kind_version_seq_pk" PRIMARY KEY("company_id","kind","version","seq")
);
--> statement-breakpoint
ALTER TABLE "company_images" ADD COLUMN "version" text;--> statement-breakpoint
-- Each stored original becomes the one chunk of its first version (written by hand: drizzle-kit moves no data).
UPDATE "company_images" SET "version" = md5(random()::text || "company_id" || "kind");--> statement-breakpoint
INSERT INTO "company_image_chunks" ("company_id", "kind", "version", "seq", "data", "written_at")
  SELECT "company_id", "kind", "version", 0, "data", "updated_at" FROM "company_images";--> statement-breakpoint
ALTER TABLE "company_images" ALTER COLUMN "version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "company_image_chunks" ADD CONSTRAINT "company_image_chunks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_images" DROP COLUMN "data";