CREATE TABLE "ticket_counts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"status" varchar(10) NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"lane_tag_id" integer,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_counts_key_idx" ON "ticket_counts" USING btree ("company_id","status",coalesce("queue_id", 0),coalesce("user_id", 0),coalesce("lane_tag_id", 0));
--> statement-breakpoint
-- A list's count sums these rows (tickets.view). Every ticket written adds to the row of its new key
-- and takes from its old key's, in the same transaction, so a reader's snapshot sees counts that
-- match the tickets it sees. A writer never waits: it takes a row of the key that no other
-- transaction holds (SKIP LOCKED) or inserts one more, so concurrent inbound batches neither queue
-- behind one hot row nor deadlock, and a key holds at most as many rows as writers ever ran at once.
CREATE FUNCTION "add_ticket_count"(company integer, state varchar, queue integer, agent integer, lane integer, delta integer)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ticket_counts" SET "count" = "count" + delta WHERE "id" = (
    SELECT "id" FROM "ticket_counts"
    WHERE "company_id" = company AND "status" = state
      AND coalesce("queue_id", 0) = coalesce(queue, 0) AND coalesce("user_id", 0) = coalesce(agent, 0)
      AND coalesce("lane_tag_id", 0) = coalesce(lane, 0)
    LIMIT 1 FOR UPDATE SKIP LOCKED);
  -- A company being deleted (its tickets go with it) has no count left to keep.
  IF NOT FOUND THEN
    INSERT INTO "ticket_counts" ("company_id", "status", "queue_id", "user_id", "lane_tag_id", "count")
    SELECT company, state, queue, agent, lane, delta WHERE EXISTS (SELECT 1 FROM "companies" WHERE "id" = company);
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_ticket"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "ticket_counts";
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM "add_ticket_count"(OLD."company_id", OLD."status", OLD."queue_id", OLD."user_id", OLD."lane_tag_id", -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "add_ticket_count"(NEW."company_id", NEW."status", NEW."queue_id", NEW."user_id", NEW."lane_tag_id", 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "tickets_count_insert_delete" AFTER INSERT OR DELETE ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION "count_ticket"();
--> statement-breakpoint
-- Only a change of the key costs anything: the condition is checked without calling the function,
-- so a new message's update of the ticket's last message and unread count runs no trigger.
CREATE TRIGGER "tickets_count_update" AFTER UPDATE OF "company_id", "status", "queue_id", "user_id", "lane_tag_id" ON "tickets"
  FOR EACH ROW WHEN ((OLD."company_id", OLD."status", OLD."queue_id", OLD."user_id", OLD."lane_tag_id")
    IS DISTINCT FROM (NEW."company_id", NEW."status", NEW."queue_id", NEW."user_id", NEW."lane_tag_id"))
  EXECUTE FUNCTION "count_ticket"();
--> statement-breakpoint
CREATE TRIGGER "tickets_count_truncate" AFTER TRUNCATE ON "tickets"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_ticket"();
--> statement-breakpoint
INSERT INTO "ticket_counts" ("company_id", "status", "queue_id", "user_id", "lane_tag_id", "count")
  SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", count(*) FROM "tickets" GROUP BY 1, 2, 3, 4, 5;
