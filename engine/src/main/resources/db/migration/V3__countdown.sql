-- Countdown semaphores (dev.tidings.coordination.postgres): one row per countdown, one per part that
-- was ever claimed. Times come from the database's clock, so that leases taken and checked by
-- different nodes compare against one clock.

-- Every fence of every part comes from this sequence, which never goes back: a lease from a run that
-- was forgotten (or whose rows were deleted) never matches a part of a later run of the same name.
CREATE SEQUENCE countdown_fence;

CREATE TABLE countdown (
  name         text        PRIMARY KEY,
  parts        integer     NOT NULL CHECK (parts >= 1),
  remaining    integer     NOT NULL CHECK (remaining >= 0),
  -- the caller's token: a repeated start by the same starter answers "created" again
  starter      text        NOT NULL,
  retention_ms bigint      NOT NULL CHECK (retention_ms >= 1),
  -- retention_ms after the last change; a row past it counts as absent and is purged by a later start
  forget_at    timestamptz NOT NULL
);

CREATE INDEX countdown_forget_at ON countdown (forget_at);

CREATE TABLE countdown_part (
  name             text        NOT NULL REFERENCES countdown (name) ON DELETE CASCADE,
  part             integer     NOT NULL CHECK (part >= 0),
  fence            bigint      NOT NULL,
  holder           text        NOT NULL,
  -- NULL once the part is done
  lease_expires_at timestamptz,
  -- the countdown's remainder right after this part finished, so a repeated finish answers the same
  done_remaining   integer,
  PRIMARY KEY (name, part),
  CHECK ((lease_expires_at IS NULL) = (done_remaining IS NOT NULL))
);
