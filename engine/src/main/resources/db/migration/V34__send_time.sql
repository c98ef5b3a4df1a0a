-- Send-time optimisation (dev.tidings.sendtime and the send ledger of dev.tidings.campaign.send).

-- A partition becomes due at not_before (null: at once). Until it is due it is not released: nothing
-- is queued for it, and only the sweep that finds it due releases it (one node wins the update) and
-- queues it. Partitions that existed before were all queued when their run started.
ALTER TABLE send_partition
  ADD COLUMN not_before timestamptz,
  ADD COLUMN released   boolean NOT NULL DEFAULT true;
ALTER TABLE send_partition ALTER COLUMN released SET DEFAULT false;

CREATE INDEX send_partition_unreleased ON send_partition (campaign_id, run_id, not_before)
  WHERE NOT released;

-- The recipient's send-time cohort: null for a run planned at once, 0 sent at their planned hour, 1
-- held out (sent at once, the control), so that people's opens can be split by cohort.
ALTER TABLE send_recipient ADD COLUMN cohort smallint CHECK (cohort IN (0, 1));

-- People's opens per subscriber and hour of the week (0 = Monday 00:00-01:00 UTC .. 167 = Sunday
-- 23:00-24:00 UTC), added to once per email a person opened (the funnel's first human open), in the
-- receipts' transaction: the planner reads a page of subscribers' rows by primary key.
CREATE TABLE send_time_open_hours (
  subscriber_id text     NOT NULL,
  hour_of_week  smallint NOT NULL CHECK (hour_of_week BETWEEN 0 AND 167),
  opens         integer  NOT NULL CHECK (opens > 0),
  PRIMARY KEY (subscriber_id, hour_of_week)
);
