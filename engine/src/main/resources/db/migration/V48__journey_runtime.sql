-- Journeys at work (dev.tidings.journeys): whether each journey lets people in and moves them, the
-- people inside (and who were), what they did that a journey asks about, and what each step sent.
-- Every table here that names a person is cleared of them when they are erased (audience.erased).

-- DRAFT: saved, nothing runs. ACTIVE: people enter and move. PAUSED: nobody enters or moves.
-- DRAINING: nobody enters; the people inside go on to the end.
ALTER TABLE journeys ADD COLUMN state text NOT NULL DEFAULT 'DRAFT'
  CHECK (state IN ('DRAFT', 'ACTIVE', 'PAUSED', 'DRAINING'));

-- For a journey whose trigger is found by a look rather than an event (a last purchase long ago):
-- how far its looks have reached, so the next one starts there and nobody is found twice or missed.
ALTER TABLE journeys ADD COLUMN looked_until timestamptz;

-- One row per entry of a person into a journey; an entry is inside until exited_at. due_at is when
-- the person is next looked at: the queue's not-before message says so, and the sweeper finds the
-- rare person whose message was lost (published after the commit that made it due).
CREATE TABLE journey_instances (
  journey_id    bigint      NOT NULL REFERENCES journeys (id) ON DELETE CASCADE,
  subscriber_id text        NOT NULL,
  entry         integer     NOT NULL CHECK (entry >= 1),
  version       integer     NOT NULL,
  entered_at    timestamptz NOT NULL,
  held_out      boolean     NOT NULL,
  items         text[]      NOT NULL,
  at_step       text        NOT NULL,
  since         timestamptz NOT NULL,
  due_at        timestamptz,
  exited_at     timestamptz,
  exit_reason   text,
  PRIMARY KEY (journey_id, subscriber_id, entry)
);
-- one entry inside per person per journey at a time
CREATE UNIQUE INDEX journey_instances_inside
  ON journey_instances (journey_id, subscriber_id) WHERE exited_at IS NULL;
CREATE INDEX journey_instances_by_subscriber ON journey_instances (subscriber_id);
CREATE INDEX journey_instances_due ON journey_instances (due_at) WHERE exited_at IS NULL;

-- What an entrant did since entering that their journey asks about (its goal, its branches, opens
-- and clicks of its emails), each once: what decisions and the hold-out's conversions read.
CREATE TABLE journey_facts (
  journey_id    bigint      NOT NULL,
  subscriber_id text        NOT NULL,
  entry         integer     NOT NULL,
  fact          text        NOT NULL,
  at            timestamptz NOT NULL,
  PRIMARY KEY (journey_id, subscriber_id, entry, fact, at),
  FOREIGN KEY (journey_id, subscriber_id, entry)
    REFERENCES journey_instances (journey_id, subscriber_id, entry) ON DELETE CASCADE
);

-- Each send step an entrant passed: sent, or (held out) what they would have been sent.
CREATE TABLE journey_sends (
  journey_id    bigint      NOT NULL,
  subscriber_id text        NOT NULL,
  entry         integer     NOT NULL,
  step          text        NOT NULL,
  campaign_id   bigint      NOT NULL,
  run_id        bigint,
  held_out      boolean     NOT NULL,
  at            timestamptz NOT NULL,
  PRIMARY KEY (journey_id, subscriber_id, entry, step),
  FOREIGN KEY (journey_id, subscriber_id, entry)
    REFERENCES journey_instances (journey_id, subscriber_id, entry) ON DELETE CASCADE
);

-- a reader's recent journey emails, for the caps on their email a day and a week
CREATE INDEX journey_sends_by_subscriber ON journey_sends (subscriber_id, at);

-- The campaign run that carries one send step's emails for one entry number: a message id is
-- (campaign, run, subscriber), so each entry's step is an email of its own, sent once.
CREATE TABLE journey_step_runs (
  journey_id  bigint  NOT NULL REFERENCES journeys (id) ON DELETE CASCADE,
  step        text    NOT NULL,
  entry       integer NOT NULL,
  campaign_id bigint  NOT NULL,
  run_id      bigint  NOT NULL,
  PRIMARY KEY (journey_id, step, entry, campaign_id),
  UNIQUE (campaign_id, run_id)
);

-- Recent activity that a journey's trigger counts (the same product viewed three times in a day) or
-- names (a product carted that is now back in stock), kept for the longest window a trigger asks.
CREATE TABLE journey_signals (
  subscriber_id text        NOT NULL,
  activity      text        NOT NULL,
  item_id       text        NOT NULL,
  at            timestamptz NOT NULL
);
CREATE INDEX journey_signals_by_item ON journey_signals (item_id, activity, at);
CREATE INDEX journey_signals_by_subscriber ON journey_signals (subscriber_id, activity, item_id, at);

-- The shop's limits on every reader's email (ReaderLimits), one row once the shop sets them.
CREATE TABLE reader_limits (
  only_row    boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  per_day     integer NOT NULL,
  per_week    integer NOT NULL,
  quiet_from  time,
  quiet_until time
);
