-- Campaign definitions (dev.tidings.campaign). The definition itself is one jsonb document in the API's
-- own format (CampaignJson), so a new field needs no migration; what queries filter on has a column.
-- Run ids come from one sequence, so a run id never repeats across campaigns, restarts or deletes.
CREATE SEQUENCE campaign_run_id;

CREATE TABLE campaigns (
  id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name           text        NOT NULL,
  state          text        NOT NULL CHECK (state IN ('DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED', 'CANCELLED',
                                                   'COMPLETED', 'COMPLETED_WITH_ERRORS')),
  definition     jsonb       NOT NULL,
  -- grows with every change of the definition: compiled templates are cached per (id, version)
  version        integer     NOT NULL DEFAULT 1,
  scheduled_at   timestamptz,
  -- the bulk run, set by the one claim that moves the campaign to RUNNING
  run_id         bigint      UNIQUE,
  -- the run that triggered sends (one subscriber at a time) belong to, created on the first trigger
  trigger_run_id bigint      UNIQUE,
  started_at     timestamptz,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  CHECK ((state = 'SCHEDULED') <= (scheduled_at IS NOT NULL)),
  CHECK ((state IN ('DRAFT', 'SCHEDULED')) = (run_id IS NULL) OR state = 'CANCELLED')
);

-- The scheduler's poll: due scheduled campaigns, oldest first, without reading the others.
CREATE INDEX campaigns_due ON campaigns (scheduled_at) WHERE state = 'SCHEDULED';
