-- The products each email's open-time slots show (dev.tidings.opentime), chosen when the email is
-- first opened and kept for good: later opens, clicks and requests after the coordinator forgot the
-- list all get the same products. The first list stored for an email wins.
CREATE TABLE message_slots (
  message_id    text        PRIMARY KEY,
  subscriber_id text        NOT NULL,
  campaign_id   bigint      NOT NULL,
  product_ids   text[]      NOT NULL,
  chosen_at     timestamptz NOT NULL
);

-- "What did this subscriber's recent emails show?": excluded from the next email's recommendations.
CREATE INDEX message_slots_by_subscriber ON message_slots (subscriber_id, chosen_at DESC);
