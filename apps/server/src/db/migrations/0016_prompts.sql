CREATE TABLE "prompt_sessions" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"cycle_id" integer DEFAULT 0 NOT NULL,
	"since_message_id" bigint NOT NULL,
	"answered_up_to" bigint DEFAULT 0 NOT NULL,
	"handed_off_at" timestamp with time zone,
	"handoff_reason" varchar(500),
	"busy_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"prompt" text NOT NULL,
	"api_key" text NOT NULL,
	"voice" varchar(100) DEFAULT 'texto' NOT NULL,
	"voice_key" text DEFAULT '' NOT NULL,
	"voice_region" varchar(100) DEFAULT '' NOT NULL,
	"max_tokens" integer DEFAULT 100 NOT NULL,
	"temperature" double precision DEFAULT 1 NOT NULL,
	"max_messages" integer DEFAULT 10 NOT NULL,
	"model" varchar(100) DEFAULT 'gpt-4o-mini' NOT NULL,
	"queue_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "transcript" text;--> statement-breakpoint
ALTER TABLE "prompt_sessions" ADD CONSTRAINT "prompt_sessions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_sessions" ADD CONSTRAINT "prompt_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompt_sessions_company_idx" ON "prompt_sessions" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "prompts_company_idx" ON "prompts" USING btree ("company_id","name");