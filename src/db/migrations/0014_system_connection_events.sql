CREATE TABLE "system_connection_events" (
	"system_id" text NOT NULL,
	"seq" integer NOT NULL,
	"event_type" text NOT NULL,
	"event_date" timestamp with time zone NOT NULL,
	CONSTRAINT "system_connection_events_system_id_seq_pk" PRIMARY KEY("system_id","seq")
);
--> statement-breakpoint
ALTER TABLE "system_connection_events" ADD CONSTRAINT "system_connection_events_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "systems" DROP COLUMN "connection_history";