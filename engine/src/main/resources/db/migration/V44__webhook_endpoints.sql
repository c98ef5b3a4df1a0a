-- Outgoing webhooks (dev.tidings.webhooks): the shop's own endpoints, each with the event types it
-- chose (none listed: every type) and the secret it verifies signatures with. A rotated secret stays
-- valid beside the new one until previous_until, and deliveries are signed with both meanwhile.
-- The last failure and the count of failures in a row are what the System page shows.
CREATE TABLE webhook_endpoints (
  id                   text        PRIMARY KEY,
  url                  text        NOT NULL,
  description          text        NOT NULL DEFAULT '',
  event_types          text[]      NOT NULL DEFAULT '{}',
  enabled              boolean     NOT NULL DEFAULT true,
  secret               text        NOT NULL,
  previous_secret      text,
  previous_until       timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  last_success_at      timestamptz,
  last_failure_at      timestamptz,
  last_failure         text,
  failures_in_a_row    integer     NOT NULL DEFAULT 0
);

-- A delivery that failed its every attempt: the event as it was sent (no secret, no signature), kept
-- until an operator replays it (attempt 1 again) or drops it.
CREATE TABLE webhook_dead_letters (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id text        NOT NULL,
  event_id    text        NOT NULL,
  event_type  text        NOT NULL,
  body        text        NOT NULL,
  attempts    integer     NOT NULL,
  last_error  text        NOT NULL,
  dead_at     timestamptz NOT NULL
);

CREATE INDEX webhook_dead_letters_endpoint ON webhook_dead_letters (endpoint_id, id);
