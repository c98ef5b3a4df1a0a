-- Work queues in PostgreSQL (dev.tidings.queue.postgres): the embedded default, also fine on an
-- external server. Every time below comes from the database's clock, so that leases taken and
-- checked by different nodes compare against one clock.

-- Declared queues: publishing to a name not here is an error, and specs survive restarts.
CREATE TABLE work_queue (
  name                  text        PRIMARY KEY,
  max_priority          smallint    NOT NULL CHECK (max_priority BETWEEN 0 AND 9),
  max_deliveries        integer     NOT NULL CHECK (max_deliveries >= 1),
  visibility_timeout_ms bigint      NOT NULL CHECK (visibility_timeout_ms >= 1),
  declared_at           timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Messages of every queue. A message is available when visible_at <= now; claiming it sets
-- visible_at to the end of the consumer's lease and a fresh claim_token, which acks must present.
CREATE TABLE work_queue_message (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue       text        NOT NULL REFERENCES work_queue (name) ON DELETE CASCADE,
  priority    smallint    NOT NULL,
  enqueued_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  visible_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  deliveries  integer     NOT NULL DEFAULT 0,
  claim_token uuid,
  body        bytea       NOT NULL,
  headers     jsonb       NOT NULL DEFAULT '{}'::jsonb
);

-- Serves "next visible message of queue Q by priority desc, id asc": an ordered index walk that
-- filters visible_at on the way and stops after LIMIT rows.
CREATE INDEX work_queue_message_next ON work_queue_message (queue, priority DESC, id) INCLUDE (visible_at);

CREATE TABLE work_queue_dead_letter (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue       text        NOT NULL,
  message_id  text        NOT NULL,
  priority    smallint    NOT NULL,
  deliveries  integer     NOT NULL,
  reason      text        NOT NULL,
  dead_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  body        bytea       NOT NULL,
  headers     jsonb       NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX work_queue_dead_letter_newest ON work_queue_dead_letter (queue, id DESC);
