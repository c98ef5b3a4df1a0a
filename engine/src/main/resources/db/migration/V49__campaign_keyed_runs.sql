-- Campaign runs asked for by a key (dev.tidings.campaign): a journey's send step for one entry number
-- sends the campaign's content in a run of its own, the same run however often it is asked for.
CREATE TABLE campaign_keyed_runs (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  key         text   NOT NULL,
  run_id      bigint NOT NULL,
  PRIMARY KEY (campaign_id, key)
);
