-- Received locations were stored as "name\naddress\nlink" (name and address optional); the spec's
-- body is "image|link|description". Only bodies whose last line is the bare map link are rewritten,
-- so rows already in the new format (link between pipes) are left alone. Tickets first: their
-- preview is matched against the message body before that changes.
UPDATE "tickets"
SET "last_message" = '|'
  || substring("last_message" from '(https://maps\.google\.com/maps\?q=[^\n|]*)$')
  || '|'
  || replace(
    replace(regexp_replace("last_message", '\n?https://maps\.google\.com/maps\?q=[^\n|]*$', ''), '|', '/'),
    chr(10),
    ', '
  )
WHERE "last_message" ~ '(^|\n)https://maps\.google\.com/maps\?q=[^\n|]*$'
  AND EXISTS (
    SELECT 1 FROM "messages"
    WHERE "messages"."ticket_id" = "tickets"."id"
      AND "messages"."media_type" = 'locationMessage'
      AND "messages"."body" = "tickets"."last_message"
  );
--> statement-breakpoint
UPDATE "messages"
SET "body" = '|'
  || substring("body" from '(https://maps\.google\.com/maps\?q=[^\n|]*)$')
  || '|'
  || replace(
    replace(regexp_replace("body", '\n?https://maps\.google\.com/maps\?q=[^\n|]*$', ''), '|', '/'),
    chr(10),
    ', '
  )
WHERE "media_type" = 'locationMessage'
  AND "body" ~ '(^|\n)https://maps\.google\.com/maps\?q=[^\n|]*$';
