-- The send ledger (dev.tidings.campaign.send): one row per campaign run, one per partition of a run,
-- one per recipient. A recipient is claimed here before its SMTP call and marked after the reply, so a
-- run resumes from the ledger (never from a cursor) and "completed" is a sum, not a guess.

CREATE TABLE send_run (
  campaign_id    bigint           NOT NULL,
  run_id         bigint           NOT NULL,
  -- PLANNING until every recipient is written and the partitions are queued, then RUNNING, PAUSED,
  -- CANCELLED, COMPLETED or COMPLETED_WITH_ERRORS
  state          text             NOT NULL,
  priority       integer          NOT NULL CHECK (priority BETWEEN 0 AND 9),
  rate_per_sec   double precision NOT NULL CHECK (rate_per_sec > 0),
  -- false for a run of triggered sends, which grows one recipient at a time and never completes
  bulk           boolean          NOT NULL,
  partitions     integer          NOT NULL DEFAULT 0,
  planned        bigint           NOT NULL DEFAULT 0,
  sent           bigint           NOT NULL DEFAULT 0,
  failed         bigint           NOT NULL DEFAULT 0,
  unknown        bigint           NOT NULL DEFAULT 0,
  skipped        bigint           NOT NULL DEFAULT 0,
  started_at     timestamptz      NOT NULL DEFAULT now(),
  finished_at    timestamptz,
  PRIMARY KEY (campaign_id, run_id)
);

CREATE INDEX send_run_active ON send_run (state) WHERE state IN ('RUNNING', 'PLANNING');

CREATE TABLE send_partition (
  campaign_id bigint  NOT NULL,
  run_id      bigint  NOT NULL,
  part        integer NOT NULL CHECK (part >= 0),
  -- the fence of the lease under which the partition is worked now; only that worker may claim or
  -- mark its recipients
  fence       bigint  NOT NULL DEFAULT 0,
  finished    boolean NOT NULL DEFAULT false,
  PRIMARY KEY (campaign_id, run_id, part),
  FOREIGN KEY (campaign_id, run_id) REFERENCES send_run ON DELETE CASCADE
);

CREATE TABLE send_recipient (
  campaign_id   bigint      NOT NULL,
  run_id        bigint      NOT NULL,
  subscriber_id text        NOT NULL,
  -- -1 for a triggered send
  part          integer     NOT NULL,
  -- planned, sending, sent, failed, unknown, skipped
  state         text        NOT NULL DEFAULT 'planned',
  fence         bigint      NOT NULL DEFAULT 0,
  reason        text,
  updated_at    timestamptz,
  PRIMARY KEY (campaign_id, run_id, subscriber_id)
);

-- the worker's claim: the next planned recipients of one partition
CREATE INDEX send_recipient_open ON send_recipient (campaign_id, run_id, part, subscriber_id)
  WHERE state IN ('planned', 'sending');
