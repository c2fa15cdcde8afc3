CREATE TABLE "campaign_pacing" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key" varchar(40) NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_shippings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"number" varchar(50) NOT NULL,
	"name" varchar(100) DEFAULT '' NOT NULL,
	"email" varchar(255) DEFAULT '' NOT NULL,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" varchar(12) DEFAULT 'pending' NOT NULL,
	"reason" varchar(60),
	"attempts" smallint DEFAULT 0 NOT NULL,
	"message_index" smallint,
	"provider_id" varchar(128),
	"confirmation_provider_id" varchar(128),
	"confirmation_requested_at" timestamp with time zone,
	"confirmation" boolean DEFAULT false NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"retry_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"status" varchar(20) DEFAULT 'INATIVA' NOT NULL,
	"confirmation" boolean DEFAULT false NOT NULL,
	"message1" text,
	"message2" text,
	"message3" text,
	"message4" text,
	"message5" text,
	"confirmation_message1" text,
	"confirmation_message2" text,
	"confirmation_message3" text,
	"confirmation_message4" text,
	"confirmation_message5" text,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"prepared_at" timestamp with time zone,
	"whatsapp_id" integer,
	"contact_list_id" integer,
	"tag_list_id" integer,
	"file_list_id" integer,
	"media_key" varchar(255),
	"media_name" varchar(255),
	"media_mime" varchar(120),
	"template_name" varchar(512),
	"template_language" varchar(15),
	"template_variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "opt_outs" (
	"company_id" integer NOT NULL,
	"number" varchar(50) NOT NULL,
	"word" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "opt_outs_company_id_number_pk" PRIMARY KEY("company_id","number")
);
--> statement-breakpoint
ALTER TABLE "campaign_pacing" ADD CONSTRAINT "campaign_pacing_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_settings" ADD CONSTRAINT "campaign_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD CONSTRAINT "campaign_shippings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD CONSTRAINT "campaign_shippings_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_contact_list_id_contact_lists_id_fk" FOREIGN KEY ("contact_list_id") REFERENCES "public"."contact_lists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_tag_list_id_tags_id_fk" FOREIGN KEY ("tag_list_id") REFERENCES "public"."tags"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_file_list_id_file_lists_id_fk" FOREIGN KEY ("file_list_id") REFERENCES "public"."file_lists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_settings_company_key" ON "campaign_settings" USING btree ("company_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_shippings_campaign_number_key" ON "campaign_shippings" USING btree ("campaign_id","number");--> statement-breakpoint
CREATE INDEX "campaign_shippings_campaign_status_idx" ON "campaign_shippings" USING btree ("campaign_id","status","id");--> statement-breakpoint
CREATE INDEX "campaign_shippings_provider_idx" ON "campaign_shippings" USING btree ("provider_id") WHERE "campaign_shippings"."provider_id" is not null;--> statement-breakpoint
CREATE INDEX "campaign_shippings_company_number_idx" ON "campaign_shippings" USING btree ("company_id","number") WHERE "campaign_shippings"."status" in ('confirming', 'sent', 'delivered', 'read');--> statement-breakpoint
CREATE INDEX "campaigns_company_idx" ON "campaigns" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "campaigns_scheduled_idx" ON "campaigns" USING btree ("scheduled_at") WHERE "campaigns"."status" = 'PROGRAMADA';--> statement-breakpoint
CREATE INDEX "campaigns_running_idx" ON "campaigns" USING btree ("whatsapp_id") WHERE "campaigns"."status" = 'EM_ANDAMENTO';