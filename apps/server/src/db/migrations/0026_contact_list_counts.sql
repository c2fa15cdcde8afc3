ALTER TABLE "contact_lists" ADD COLUMN "contacts_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD COLUMN "valid_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD COLUMN "invalid_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each statement that writes a list's items adds to the list's row what it changed, in its own
-- transaction: a reader sees counts that match the items it sees. One list's row serialises the
-- writers of that list only (an import, the WhatsApp check, an agent's edit), which are few and
-- short, unlike the inbound path for which `ticket_counts` and `contact_counts` spread their rows.
CREATE FUNCTION "add_contact_list_counts"(lists integer[], valids boolean[], sign integer)
  RETURNS void LANGUAGE sql AS $$
  UPDATE "contact_lists" l SET
    "contacts_count" = l."contacts_count" + sign * c."n",
    "valid_count" = l."valid_count" + sign * c."valid",
    "invalid_count" = l."invalid_count" + sign * c."invalid"
  FROM (SELECT "id", count(*)::int "n", (count(*) FILTER (WHERE "valid"))::int "valid",
          (count(*) FILTER (WHERE NOT "valid"))::int "invalid"
        FROM unnest(lists, valids) AS t("id", "valid") GROUP BY "id") c
  WHERE l."id" = c."id";
$$;
--> statement-breakpoint
CREATE FUNCTION "count_contact_list_items"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "contact_lists" SET "contacts_count" = 0, "valid_count" = 0, "invalid_count" = 0;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM "add_contact_list_counts"(array_agg("contact_list_id"), array_agg("is_whatsapp_valid"), 1) FROM "added";
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "add_contact_list_counts"(array_agg("contact_list_id"), array_agg("is_whatsapp_valid"), -1) FROM "removed";
  ELSE
    -- Only the items whose list or check changed (an import's merge of a name or e-mail does not).
    PERFORM "add_contact_list_counts"(array_agg(r."contact_list_id"), array_agg(r."is_whatsapp_valid"), -1),
            "add_contact_list_counts"(array_agg(a."contact_list_id"), array_agg(a."is_whatsapp_valid"), 1)
    FROM "added" a JOIN "removed" r USING ("id")
    WHERE (a."contact_list_id", a."is_whatsapp_valid") IS DISTINCT FROM (r."contact_list_id", r."is_whatsapp_valid");
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contact_list_items_count_insert" AFTER INSERT ON "contact_list_items" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contact_list_items"();
--> statement-breakpoint
CREATE TRIGGER "contact_list_items_count_update" AFTER UPDATE ON "contact_list_items" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contact_list_items"();
--> statement-breakpoint
CREATE TRIGGER "contact_list_items_count_delete" AFTER DELETE ON "contact_list_items" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contact_list_items"();
--> statement-breakpoint
CREATE TRIGGER "contact_list_items_count_truncate" AFTER TRUNCATE ON "contact_list_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_contact_list_items"();
--> statement-breakpoint
UPDATE "contact_lists" l SET
  "contacts_count" = c."n", "valid_count" = c."valid", "invalid_count" = c."invalid"
FROM (SELECT "contact_list_id" "id", count(*)::int "n", (count(*) FILTER (WHERE "is_whatsapp_valid"))::int "valid",
        (count(*) FILTER (WHERE NOT "is_whatsapp_valid"))::int "invalid"
      FROM "contact_list_items" GROUP BY 1) c
WHERE l."id" = c."id";
