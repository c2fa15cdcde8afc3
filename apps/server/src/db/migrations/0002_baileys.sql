CREATE TABLE "baileys_auth" (
	"whatsapp_id" integer NOT NULL,
	"type" varchar(40) NOT NULL,
	"key_id" varchar(255) NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "baileys_auth_whatsapp_id_type_key_id_pk" PRIMARY KEY("whatsapp_id","type","key_id")
);
--> statement-breakpoint
CREATE TABLE "baileys_sent" (
	"whatsapp_id" integer NOT NULL,
	"provider_id" varchar(128) NOT NULL,
	"data" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "baileys_sent_whatsapp_id_provider_id_pk" PRIMARY KEY("whatsapp_id","provider_id")
);
--> statement-breakpoint
ALTER TABLE "baileys_auth" ADD CONSTRAINT "baileys_auth_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baileys_sent" ADD CONSTRAINT "baileys_sent_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "baileys_sent_created_idx" ON "baileys_sent" USING btree ("whatsapp_id","created_at");