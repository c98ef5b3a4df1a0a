-- Delivery receipts (dev.tidings.delivery): statuses that only move forward and an exact funnel.

-- A message's current status: the highest-priority status any receipt gave it (DeliveryStatus
-- priority). A row exists once the message is known: its send record (an SMTP outcome) arrived.
CREATE TABLE message_status (
  message_id    text        PRIMARY KEY,
  campaign_id   bigint      NOT NULL,
  subscriber_id text        NOT NULL,
  status        smallint    NOT NULL,
  status_at     timestamptz NOT NULL,
  sent_at       timestamptz
);
CREATE INDEX message_status_by_campaign ON message_status (campaign_id, status);

-- Each step of each message once (a status, with the statuses it implies, and the human open/click
-- steps): the funnel counts rows of this table, so a receipt that arrives twice counts once.
CREATE TABLE message_steps (
  message_id  text        NOT NULL,
  step        smallint    NOT NULL,
  campaign_id bigint      NOT NULL,
  first_at    timestamptz NOT NULL,
  source      text        NOT NULL,
  reason      text,
  PRIMARY KEY (message_id, step)
);

-- The funnel: for each new message_steps row, +1 in the same transaction. Several rows per
-- (campaign, step) so that concurrent consumers do not queue on one row; readers sum the shards.
CREATE TABLE campaign_funnel (
  campaign_id bigint   NOT NULL,
  step        smallint NOT NULL,
  shard       smallint NOT NULL,
  count       bigint   NOT NULL,
  PRIMARY KEY (campaign_id, step, shard)
);

-- The same counts per minute of the receipt's time, for rates over time.
CREATE TABLE campaign_funnel_minutes (
  campaign_id bigint      NOT NULL,
  step        smallint    NOT NULL,
  minute      timestamptz NOT NULL,
  shard       smallint    NOT NULL,
  count       bigint      NOT NULL,
  PRIMARY KEY (campaign_id, step, minute, shard)
);

-- Human clicks per slot position, each (message, slot) once.
CREATE TABLE slot_clicks (
  message_id  text        NOT NULL,
  slot        smallint    NOT NULL,
  campaign_id bigint      NOT NULL,
  first_at    timestamptz NOT NULL,
  PRIMARY KEY (message_id, slot)
);
CREATE INDEX slot_clicks_by_campaign ON slot_clicks (campaign_id, slot);

-- Receipts that overtook their message's send record: applied when it arrives, dropped by age.
CREATE TABLE parked_receipts (
  id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id text        NOT NULL,
  receipt    jsonb       NOT NULL,
  parked_at  timestamptz NOT NULL
);
CREATE INDEX parked_receipts_by_message ON parked_receipts (message_id);
CREATE INDEX parked_receipts_by_age ON parked_receipts (parked_at);

-- Provider events that map to no status, counted per type with the last one seen.
CREATE TABLE unknown_receipts (
  source     text        NOT NULL,
  event_type text        NOT NULL,
  count      bigint      NOT NULL,
  last_seen  timestamptz NOT NULL,
  last_event text        NOT NULL,
  PRIMARY KEY (source, event_type)
);
