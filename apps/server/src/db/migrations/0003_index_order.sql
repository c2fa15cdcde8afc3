-- Indexes in the order the queries ask for: `ORDER BY x DESC` means NULLS FIRST, and an index built
-- NULLS LAST cannot serve it (the ticket list sorted thousands of rows instead of reading 21).
DROP INDEX "messages_ticket_created_idx";--> statement-breakpoint
DROP INDEX "ticket_notes_contact_idx";--> statement-breakpoint
DROP INDEX "ticket_trakings_ticket_idx";--> statement-breakpoint
DROP INDEX "tickets_company_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_company_queue_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_company_user_status_idx";--> statement-breakpoint
DROP INDEX "tickets_contact_idx";--> statement-breakpoint
CREATE INDEX "messages_ticket_created_idx" ON "messages" USING btree ("ticket_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ticket_notes_contact_idx" ON "ticket_notes" USING btree ("contact_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ticket_trakings_ticket_idx" ON "ticket_trakings" USING btree ("ticket_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_company_status_updated_idx" ON "tickets" USING btree ("company_id","status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_company_queue_status_updated_idx" ON "tickets" USING btree ("company_id","queue_id","status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_company_user_status_idx" ON "tickets" USING btree ("company_id","user_id","status","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_contact_idx" ON "tickets" USING btree ("contact_id","updated_at" DESC NULLS FIRST);