-- Counts per variant in several rows, the shard picked by the writing session, so that concurrent
-- senders of one variant do not queue on one row; readers sum the shards (as the funnel's counts do).
ALTER TABLE experiment_counts ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE experiment_counts DROP CONSTRAINT experiment_counts_pkey;
ALTER TABLE experiment_counts ADD PRIMARY KEY (campaign_id, variant, shard);

CREATE OR REPLACE FUNCTION message_steps_to_experiments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO experiment_counts AS c (campaign_id, variant, shard, human_opened, human_clicked)
    SELECT e.campaign_id, e.variant, pg_backend_pid() % 8,
           count(*) FILTER (WHERE n.step = 61), count(*) FILTER (WHERE n.step = 71)
      FROM stored n JOIN experiment_sends e ON e.message_id = n.message_id
     WHERE n.step IN (61, 71)
     GROUP BY e.campaign_id, e.variant
     ORDER BY e.campaign_id, e.variant
    ON CONFLICT (campaign_id, variant, shard) DO UPDATE
      SET human_opened = c.human_opened + excluded.human_opened,
          human_clicked = c.human_clicked + excluded.human_clicked;
  RETURN NULL;
END $$;

-- An A/B test's rollout is claimed in its decision's row once (the campaign that sends the winner to the
-- rest; -1 while it is being made), so a repeated request sends nothing twice.
ALTER TABLE experiment_decisions ADD COLUMN rollout_campaign_id bigint;
