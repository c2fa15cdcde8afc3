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
-- A list's count sums these rows (tickets.view). Every statement that writes tickets adds, per key,
-- what it brought to the key and took from it, in the same transaction, so a reader's snapshot sees
-- counts that match the tickets it sees. A writer never waits: it takes a row of the key that no
-- other transaction holds (SKIP LOCKED) or inserts one more, so concurrent inbound batches neither
-- queue behind one hot row nor deadlock, and a key holds at most as many rows as writers ever ran at
-- once.
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
-- Once per statement, over the rows it wrote: one update per key however many tickets it wrote (a
-- trigger per row would update a key's row once per ticket, and a transaction's updates of one row
-- cost more with each, as its own earlier versions cannot be pruned: 20,000 tickets took 6.5 s).
CREATE FUNCTION "count_tickets"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "ticket_counts";
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM "add_ticket_count"("company_id", "status", "queue_id", "user_id", "lane_tag_id", n)
    FROM (SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", count(*)::int n
          FROM "added" GROUP BY 1, 2, 3, 4, 5) k;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "add_ticket_count"("company_id", "status", "queue_id", "user_id", "lane_tag_id", -n)
    FROM (SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", count(*)::int n
          FROM "removed" GROUP BY 1, 2, 3, 4, 5) k;
  ELSE
    -- Most updates leave every key as it was (a new message's last message and unread count): their
    -- rows cancel out and nothing is written.
    PERFORM "add_ticket_count"("company_id", "status", "queue_id", "user_id", "lane_tag_id", n)
    FROM (SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", sum(d)::int n
          FROM (SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", 1 d FROM "added"
                UNION ALL
                SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", -1 FROM "removed") c
          GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0) k;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "tickets_count_insert" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_tickets"();
--> statement-breakpoint
CREATE TRIGGER "tickets_count_update" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_tickets"();
--> statement-breakpoint
CREATE TRIGGER "tickets_count_delete" AFTER DELETE ON "tickets" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_tickets"();
--> statement-breakpoint
CREATE TRIGGER "tickets_count_truncate" AFTER TRUNCATE ON "tickets"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_tickets"();
--> statement-breakpoint
INSERT INTO "ticket_counts" ("company_id", "status", "queue_id", "user_id", "lane_tag_id", "count")
  SELECT "company_id", "status", "queue_id", "user_id", "lane_tag_id", count(*) FROM "tickets" GROUP BY 1, 2, 3, 4, 5;
