CREATE TABLE "pbx_ivr_overflows" (
	"ivr_id" text NOT NULL,
	"hours" text NOT NULL,
	"type" text NOT NULL,
	"target_subscriber_id" text,
	"target_group_id" text,
	"target_ivr_id" text,
	CONSTRAINT "pbx_ivr_overflows_ivr_id_hours_pk" PRIMARY KEY("ivr_id","hours")
);
--> statement-breakpoint
ALTER TABLE "pbx_ivr_overflows" ADD CONSTRAINT "pbx_ivr_overflows_ivr_id_pbx_ivrs_id_fk" FOREIGN KEY ("ivr_id") REFERENCES "public"."pbx_ivrs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ivr_overflows" ADD CONSTRAINT "pbx_ivr_overflows_target_subscriber_id_pbx_subscribers_id_fk" FOREIGN KEY ("target_subscriber_id") REFERENCES "public"."pbx_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ivr_overflows" ADD CONSTRAINT "pbx_ivr_overflows_target_group_id_pbx_groups_id_fk" FOREIGN KEY ("target_group_id") REFERENCES "public"."pbx_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pbx_ivr_overflows" ADD CONSTRAINT "pbx_ivr_overflows_target_ivr_id_pbx_ivrs_id_fk" FOREIGN KEY ("target_ivr_id") REFERENCES "public"."pbx_ivrs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pbx_ivr_overflows_subscriber_idx" ON "pbx_ivr_overflows" USING btree ("target_subscriber_id");--> statement-breakpoint
CREATE INDEX "pbx_ivr_overflows_group_idx" ON "pbx_ivr_overflows" USING btree ("target_group_id");--> statement-breakpoint
CREATE INDEX "pbx_ivr_overflows_ivr_idx" ON "pbx_ivr_overflows" USING btree ("target_ivr_id");--> statement-breakpoint
ALTER TABLE "pbx_ivrs" DROP COLUMN "open_hours_overflow";--> statement-breakpoint
ALTER TABLE "pbx_ivrs" DROP COLUMN "closed_hours_overflow";