-- Retention (dev.tidings.app.Retention): each table that grows with traffic is removed from in bounded
-- batches, oldest first, by the time its owner says a row expires; these indexes let a batch start at
-- the oldest row instead of scanning the table.
--
-- On a database that already holds millions of messages or events, building an index here holds the
-- table's writes until it is built. Build them beforehand without that, on the live database, and this
-- migration finds them there and skips them:
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS message_status_by_time ON message_status (status_at);
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS message_slots_by_time ON message_slots (chosen_at);
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS experiment_sends_by_time ON experiment_sends (sent_at);
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS activity_events_by_time ON activity_events (occurred_at);
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS work_queue_dead_letter_by_time ON work_queue_dead_letter (dead_at);

-- A message expires whole once its status has not moved for the lifetime. Every status move already
-- rewrites the row's index entries (the status is indexed for the funnel's counts), so this index adds
-- one entry to each, no lost HOT update.
CREATE INDEX IF NOT EXISTS message_status_by_time ON message_status (status_at);

-- Written once per email; chosen_at changes only when a provisional list is replaced.
CREATE INDEX IF NOT EXISTS message_slots_by_time ON message_slots (chosen_at);

CREATE INDEX IF NOT EXISTS experiment_sends_by_time ON experiment_sends (sent_at);

-- Events are inserted and never updated: one more entry per event stored.
CREATE INDEX IF NOT EXISTS activity_events_by_time ON activity_events (occurred_at);

CREATE INDEX IF NOT EXISTS work_queue_dead_letter_by_time ON work_queue_dead_letter (dead_at);
