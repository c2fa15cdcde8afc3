CREATE TABLE "integration_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"cycle_id" integer DEFAULT 0 NOT NULL,
	"status" varchar(10) DEFAULT 'active' NOT NULL,
	"external_session_id" varchar(200),
	"pending_choices" text[] DEFAULT '{}'::text[] NOT NULL,
	"processed_up_to" bigint DEFAULT 0 NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"busy_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"type" varchar(20) NOT NULL,
	"name" varchar(50) NOT NULL,
	"project_name" varchar(100) DEFAULT '' NOT NULL,
	"json_content" text DEFAULT '' NOT NULL,
	"json_content_client_email" varchar(255) DEFAULT '' NOT NULL,
	"language" varchar(10) DEFAULT 'pt-BR' NOT NULL,
	"url_n8n" varchar(500) DEFAULT '' NOT NULL,
	"typebot_delay_message" integer DEFAULT 1000 NOT NULL,
	"typebot_expires" integer DEFAULT 1 NOT NULL,
	"typebot_keyword_finish" varchar(50) DEFAULT '' NOT NULL,
	"typebot_keyword_restart" varchar(50) DEFAULT '' NOT NULL,
	"typebot_restart_message" text DEFAULT '' NOT NULL,
	"typebot_slug" varchar(200) DEFAULT '' NOT NULL,
	"typebot_unknown_message" text DEFAULT '' NOT NULL,
	"signing_secret" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_outbox" ADD COLUMN "sends" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "integration_sessions" ADD CONSTRAINT "integration_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_sessions" ADD CONSTRAINT "integration_sessions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_sessions" ADD CONSTRAINT "integration_sessions_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD CONSTRAINT "queue_integrations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_sessions_ticket_integration_key" ON "integration_sessions" USING btree ("ticket_id","integration_id");--> statement-breakpoint
CREATE INDEX "integration_sessions_expiry_idx" ON "integration_sessions" USING btree ("expires_at") WHERE "integration_sessions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "integration_sessions_company_idx" ON "integration_sessions" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "queue_integrations_company_idx" ON "queue_integrations" USING btree ("company_id","name");