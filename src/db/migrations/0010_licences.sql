CREATE TABLE "licences" (
	"subscription_id" text NOT NULL,
	"user_id" text NOT NULL,
	"user_company_id" text NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licences_subscription_id_user_id_pk" PRIMARY KEY("subscription_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "number_assigned_users" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licences_user_idx" ON "licences" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "licences_company_idx" ON "licences" USING btree ("user_company_id");