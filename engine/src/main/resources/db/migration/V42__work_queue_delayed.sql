-- Delayed messages (dev.tidings.queue.postgres): a message published with a not-before instant ahead
-- waits here until it is due, and a claim first moves the due ones of its queue into
-- work_queue_message. Kept out of work_queue_message because the claim walks the waiting index in
-- priority order and filters visible_at on the heap: every delayed row ahead of the due ones would be
-- read by every claim (200,000 rows delayed by up to three days made a claim of 10 take 55 ms, against
-- well under 1 ms), and putting visible_at into that index would end the HOT lease renewals.
CREATE TABLE work_queue_delayed (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue       text        NOT NULL REFERENCES work_queue (name) ON DELETE CASCADE,
  not_before  timestamptz NOT NULL,
  priority    smallint    NOT NULL,
  enqueued_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  body        bytea       NOT NULL,
  headers     jsonb       NOT NULL DEFAULT '{}'::jsonb
);

-- Serves the due ones of a queue in due order, the next one due, and the count of those waiting.
CREATE INDEX work_queue_delayed_due ON work_queue_delayed (queue, not_before, id);

-- Set on a message moved from work_queue_delayed, so that its first delivery can tell how late it is.
-- In no index, so lease renewals stay HOT.
ALTER TABLE work_queue_message ADD COLUMN not_before timestamptz;

ALTER TABLE work_queue_delayed SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_insert_scale_factor = 0.02);
