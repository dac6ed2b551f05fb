CREATE TABLE "outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"stanza" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox_recipients" (
	"recipient" text PRIMARY KEY NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"delivered_seq" bigint DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "xmpp_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"stanza" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reply" text,
	"asked_by" text NOT NULL,
	"sent_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "port_records" (
	"port" text NOT NULL,
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"parent_id" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "port_records_port_kind_id_pk" PRIMARY KEY("port","kind","id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "jid_im" text;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_recipient_seq_uq" ON "outbox" USING btree ("recipient","seq");--> statement-breakpoint
CREATE INDEX "outbox_undelivered_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."delivered_at" IS NULL;--> statement-breakpoint
CREATE INDEX "outbox_recipients_pending_idx" ON "outbox_recipients" USING btree ("recipient") WHERE "outbox_recipients"."delivered_seq" < "outbox_recipients"."last_seq";--> statement-breakpoint
CREATE INDEX "xmpp_requests_state_idx" ON "xmpp_requests" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "port_records_parent_idx" ON "port_records" USING btree ("port","kind","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_jid_im_uq" ON "users" USING btree ("jid_im");