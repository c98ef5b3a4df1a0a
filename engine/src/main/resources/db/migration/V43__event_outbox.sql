-- Events (dev.tidings.events). A capability that emits events writes them here in its own
-- transaction, one row per write (a batch of receipts is one row, not one per step): nothing is told
-- that was not committed, and nothing committed is lost. The relay moves rows out, oldest first.
-- A row is a JSON array of events (id, type, subject, time, data), or a batch of one type in columns
-- ({"type", "subject": the column that is the subject, "columns": {"field": [values], "time": [...]}}),
-- which a hot path writes with a few aggregates instead of an object per event; the relay gives each
-- of its events the id e<row id>-<n>.
CREATE TABLE event_outbox (
  id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  written_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- json, not jsonb: a writer's text is only checked, not converted, on the emitter's hot path; the
  -- relay reads it as jsonb
  events     json        NOT NULL
);

ALTER TABLE event_outbox SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_insert_scale_factor = 0.02);

-- Every relayed event, one row each, in the order the relay took them: the position is the cursor a
-- shop's systems read from (GET /api/v1/events?after=). Relay transactions take an advisory lock, so
-- positions become visible in order and a reader never skips one that commits late.
CREATE TABLE event_log (
  position   bigint      PRIMARY KEY,
  id         text        NOT NULL,
  type       text        NOT NULL,
  subject    text        NOT NULL,
  occurred   timestamptz NOT NULL,
  relayed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  data       jsonb       NOT NULL
);

CREATE SEQUENCE event_log_position;

-- Expiry walks the oldest rows.
CREATE INDEX event_log_relayed ON event_log (relayed_at);

-- The events a listener has applied, by event id: the relay delivers at least once, and a listener
-- whose effect counts (open hours, experiment counts) applies each event once.
CREATE TABLE event_inbox (
  listener text        NOT NULL,
  event_id text        NOT NULL,
  seen_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (listener, event_id)
);

CREATE INDEX event_inbox_seen ON event_inbox (seen_at);

-- How a capability's trigger tells events (the catalogue's products added, back in stock, cheaper): it
-- hands a JSON array of events, as dev.tidings.events.EventOutbox writes them, to the outbox's owner.
CREATE FUNCTION event_outbox_append(events jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_outbox (events) SELECT CAST(events AS json) WHERE jsonb_array_length(events) > 0
$$;

-- One event as EventOutbox writes it, for a statement to gather into the array it appends: a fresh id,
-- the CloudEvents type and subject, and the record's fields with the time it happened (UTC, to the
-- microsecond, as Java's Instant reads it), now unless the statement knows better.
CREATE FUNCTION event_outbox_event(
    type text, subject text, data jsonb, at timestamptz DEFAULT clock_timestamp())
  RETURNS jsonb LANGUAGE sql AS $$
  SELECT jsonb_build_object(
    'id', gen_random_uuid()::text,
    'type', type,
    'subject', subject,
    'time', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'data', data || jsonb_build_object(
      'time', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
$$;

-- A batch of events of one type in columns, from a statement that stores many (the activity intake):
-- appended when it holds any (over no rows, an aggregate is null).
CREATE FUNCTION event_outbox_append_columns(type text, subject text, columns json)
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_outbox (events)
  SELECT json_build_object('type', type, 'subject', subject, 'columns', columns)
   WHERE json_typeof(columns->'time') = 'array'
$$;

-- How far the feeder has appended the log to a stream a shop's systems read (the RabbitMQ stream): the
-- position of the last event the stream confirmed. Written after each append, under the feeder's
-- advisory lock; a feeder that stops between the two appends that batch again once (readers drop the
-- repeats by id).
CREATE TABLE event_stream_cursor (
  stream   text   PRIMARY KEY,
  position bigint NOT NULL
);
