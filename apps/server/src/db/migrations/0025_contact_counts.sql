CREATE TABLE "contact_counts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_counts" ADD CONSTRAINT "contact_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_counts_company_idx" ON "contact_counts" USING btree ("company_id");--> statement-breakpoint
-- The contacts list sums a company's rows here (contacts.service). As with `ticket_counts`
-- (migration 0024), each statement that inserts or deletes contacts adds, per company, what it
-- changed, in its own transaction, and a writer never waits for another: it takes a row no other
-- transaction holds (SKIP LOCKED) or inserts one more. A contact never changes company, so updates
-- leave the counts alone.
CREATE FUNCTION "add_contact_count"(company integer, delta integer)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "contact_counts" SET "count" = "count" + delta WHERE "id" = (
    SELECT "id" FROM "contact_counts" WHERE "company_id" = company LIMIT 1 FOR UPDATE SKIP LOCKED);
  -- A company being deleted (its contacts go with it) has no count left to keep.
  IF NOT FOUND THEN
    INSERT INTO "contact_counts" ("company_id", "count")
    SELECT company, delta WHERE EXISTS (SELECT 1 FROM "companies" WHERE "id" = company);
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_contacts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "contact_counts";
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM "add_contact_count"("company_id", count(*)::int) FROM "added" GROUP BY "company_id";
  ELSE
    PERFORM "add_contact_count"("company_id", -count(*)::int) FROM "removed" GROUP BY "company_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_count_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contacts"();
--> statement-breakpoint
CREATE TRIGGER "contacts_count_delete" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contacts"();
--> statement-breakpoint
CREATE TRIGGER "contacts_count_truncate" AFTER TRUNCATE ON "contacts"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contacts"();
--> statement-breakpoint
INSERT INTO "contact_counts" ("company_id", "count")
  SELECT "company_id", count(*) FROM "contacts" GROUP BY 1;
