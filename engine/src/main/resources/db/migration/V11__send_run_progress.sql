-- When a run's counters last moved: a running run that has not moved for many leases has partitions
-- that no worker holds and no queue message will bring back (a purged or lost queue), and the sweeper
-- queues its unfinished partitions again.
ALTER TABLE send_run ADD COLUMN progressed_at timestamptz NOT NULL DEFAULT now();
