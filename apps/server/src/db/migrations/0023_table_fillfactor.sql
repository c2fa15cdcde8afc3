-- Room on each page for the next version of a row: an update that changes no indexed column (a
-- ticket's unread count or bot state, a message's ack or read mark) then stays on its page as a
-- heap-only tuple and writes none of the table's indexes (tickets has eleven, messages six with a
-- trigram index on the body). Pages are filled to this mark from now on; rows already stored move
-- to pages with room as they are updated.
ALTER TABLE "tickets" SET (fillfactor = 80);
--> statement-breakpoint
ALTER TABLE "messages" SET (fillfactor = 90);
