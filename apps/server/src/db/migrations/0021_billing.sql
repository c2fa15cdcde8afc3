CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"detail" varchar(200) DEFAULT '' NOT NULL,
	"value" numeric(10, 2) NOT NULL,
	"due_date" date NOT NULL,
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"paid_at" timestamp with time zone,
	"txid" varchar(35),
	"provider" varchar(20),
	"charge_id" varchar(100),
	"copy_paste" text,
	"charge_amount" numeric(10, 2),
	"charge_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" varchar(20) NOT NULL,
	"event_id" varchar(200) NOT NULL,
	"invoice_id" integer,
	"outcome" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"charge_id" varchar(100) PRIMARY KEY NOT NULL,
	"txid" varchar(35) NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"copy_paste" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_amount" numeric(10, 2),
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charges_txid_unique" UNIQUE("txid")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_name" varchar(200);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "address_zip_code" varchar(20);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "address_street" varchar(200);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "address_state" varchar(100);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "address_city" varchar(100);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "address_district" varchar(100);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_company_due_key" ON "invoices" USING btree ("company_id","due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_txid_key" ON "invoices" USING btree ("txid");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_charge_key" ON "invoices" USING btree ("provider","charge_id");--> statement-breakpoint
CREATE INDEX "invoices_company_idx" ON "invoices" USING btree ("company_id","due_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "invoices_open_charge_idx" ON "invoices" USING btree ("charge_expires_at") WHERE "invoices"."status" = 'open' and "invoices"."charge_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event_key" ON "payment_events" USING btree ("provider","event_id");