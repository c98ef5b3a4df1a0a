-- Work queues, second shape (dev.tidings.queue.postgres): set-based claims and settlements, lease
-- renewals that stay HOT, and the per-queue retry, time-limit and fairness settings of QueueSpec.

-- The settings QueueSpec gained. Queues declared before keep QueueSpec's defaults until redeclared.
ALTER TABLE work_queue
  ADD COLUMN handler_timeout_ms   bigint           NOT NULL DEFAULT 900000 CHECK (handler_timeout_ms >= 1),
  ADD COLUMN retry_initial_ms     bigint           NOT NULL DEFAULT 5000   CHECK (retry_initial_ms >= 0),
  ADD COLUMN retry_multiplier     double precision NOT NULL DEFAULT 4      CHECK (retry_multiplier BETWEEN 1 AND 100),
  ADD COLUMN retry_max_ms         bigint           NOT NULL DEFAULT 600000 CHECK (retry_max_ms >= retry_initial_ms),
  ADD COLUMN oldest_every         integer          NOT NULL DEFAULT 10     CHECK (oldest_every = 0 OR oldest_every >= 2);

-- A message is waiting while claim_token IS NULL (claimable once visible_at has passed: a retry waits
-- its backoff that way) and leased while claim_token is set (visible_at is then the end of the lease).
-- The old index held every row and visible_at, so a claim walked past every leased row and no update
-- could be HOT. Now the claim index holds waiting rows only, and visible_at is in no index: renewing a
-- lease (visible_at alone) is a HOT update, and a claim starts at the first waiting row.
DROP INDEX work_queue_message_next;

CREATE INDEX work_queue_message_waiting ON work_queue_message (queue, priority DESC, id)
  WHERE claim_token IS NULL;

-- Leased rows, so that finding expired leases (consumers that died) costs what is leased, not the
-- whole queue.
CREATE INDEX work_queue_message_leased ON work_queue_message (queue, id)
  WHERE claim_token IS NOT NULL;

-- Room on each page for HOT versions (lease renewals), and vacuum before dead rows of a table that
-- churns every row pile up in the claim index.
ALTER TABLE work_queue_message SET (
  fillfactor = 80,
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_insert_scale_factor = 0.02);
