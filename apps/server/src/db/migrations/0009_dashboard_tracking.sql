DROP INDEX "ticket_trakings_company_finished_idx";--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "first_reply_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "transferred_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "transfers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "wait_seconds" integer;--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "first_reply_seconds" integer;--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "support_seconds" integer;--> statement-breakpoint
ALTER TABLE "ticket_trakings" ADD COLUMN "lead" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "ticket_trakings_company_started_idx" ON "ticket_trakings" USING btree ("company_id","started_at","wait_seconds");--> statement-breakpoint
CREATE INDEX "ticket_trakings_company_first_reply_idx" ON "ticket_trakings" USING btree ("company_id","first_reply_at","first_reply_seconds");--> statement-breakpoint
CREATE INDEX "ticket_trakings_company_lead_idx" ON "ticket_trakings" USING btree ("company_id","queued_at") WHERE "ticket_trakings"."lead";--> statement-breakpoint
CREATE INDEX "tickets_company_created_idx" ON "tickets" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "user_ratings_company_created_idx" ON "user_ratings" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_trakings_company_finished_idx" ON "ticket_trakings" USING btree ("company_id","finished_at","user_id","support_seconds");--> statement-breakpoint
-- Cycles recorded before these columns existed get the durations their times already tell, and the
-- first cycle of each contact's first ticket is its lead.
UPDATE "ticket_trakings" SET "wait_seconds" = round(extract(epoch from ("started_at" - "queued_at")))::int WHERE "started_at" IS NOT NULL AND "queued_at" IS NOT NULL;--> statement-breakpoint
UPDATE "ticket_trakings" SET "support_seconds" = round(extract(epoch from ("finished_at" - "started_at")))::int WHERE "finished_at" IS NOT NULL AND "started_at" IS NOT NULL;--> statement-breakpoint
UPDATE "ticket_trakings" k SET "lead" = true
FROM (SELECT DISTINCT ON ("contact_id") "id" FROM "tickets" ORDER BY "contact_id", "created_at", "id") f
WHERE k."ticket_id" = f."id" AND k."id" = (SELECT min(c."id") FROM "ticket_trakings" c WHERE c."ticket_id" = f."id");
