-- A subscriber's last emails, newest first, with what became of each (the dashboard's subscriber page,
-- GET /api/v1/subscribers/{id}/emails): one range of this index instead of a scan of every message.
-- A message's row is written once per status move, and the status is indexed already (by campaign),
-- so this adds one index entry per write, no lost HOT update.
--
-- On a database that already holds millions of messages, building the index here holds the table's
-- writes until it is built. Build it beforehand without that, on the live database, and this
-- migration finds it there and skips it:
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS message_status_by_subscriber
--     ON message_status (subscriber_id, sent_at DESC NULLS LAST);
CREATE INDEX IF NOT EXISTS message_status_by_subscriber
  ON message_status (subscriber_id, sent_at DESC NULLS LAST);
