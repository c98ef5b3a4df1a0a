-- Campaign experiments (dev.tidings.optimize.CampaignExperiments): which variant each sent email was,
-- and per campaign and variant the emails sent and the people who opened and clicked them.
CREATE TABLE experiment_sends (
  message_id    text        PRIMARY KEY,
  campaign_id   bigint      NOT NULL,
  subscriber_id text        NOT NULL,
  variant       smallint    NOT NULL,
  sent_at       timestamptz NOT NULL
);
-- the rollout's audience: who was not in a campaign's test
CREATE INDEX experiment_sends_by_subscriber ON experiment_sends (campaign_id, subscriber_id);

CREATE TABLE experiment_counts (
  campaign_id   bigint   NOT NULL,
  variant       smallint NOT NULL,
  sent          bigint   NOT NULL DEFAULT 0,
  human_opened  bigint   NOT NULL DEFAULT 0,
  human_clicked bigint   NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, variant)
);

-- A person's first open (step 61) or click (step 71) of an experiment's email counts for its variant,
-- in the transaction that records the step: the delivery funnel counts each step of a message once, so
-- these do too.
CREATE FUNCTION message_steps_to_experiments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO experiment_counts AS c (campaign_id, variant, human_opened, human_clicked)
    SELECT e.campaign_id, e.variant,
           count(*) FILTER (WHERE n.step = 61), count(*) FILTER (WHERE n.step = 71)
      FROM stored n JOIN experiment_sends e ON e.message_id = n.message_id
     WHERE n.step IN (61, 71)
     GROUP BY e.campaign_id, e.variant
     ORDER BY e.campaign_id, e.variant
    ON CONFLICT (campaign_id, variant) DO UPDATE
      SET human_opened = c.human_opened + excluded.human_opened,
          human_clicked = c.human_clicked + excluded.human_clicked;
  RETURN NULL;
END $$;

CREATE TRIGGER message_steps_to_experiments AFTER INSERT ON message_steps
  REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION message_steps_to_experiments();

-- The first decision an experiment reached, kept: later looks do not undo it.
CREATE TABLE experiment_decisions (
  campaign_id bigint           PRIMARY KEY,
  winner      smallint         NOT NULL,
  decided_at  timestamptz      NOT NULL,
  p_value     double precision NOT NULL,
  difference  double precision NOT NULL,
  low         double precision NOT NULL,
  high        double precision NOT NULL
);
