-- Journeys (dev.tidings.journeys): each journey and every version of it that was saved. Editing a
-- journey saves a new version and leaves the old ones as they were, so people who entered on an older
-- version finish on it. A version holds the journey as the API reads it (JourneyJson), no person.
CREATE TABLE journeys (
  id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  latest_version integer     NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);

CREATE TABLE journey_versions (
  journey_id bigint      NOT NULL REFERENCES journeys (id) ON DELETE CASCADE,
  version    integer     NOT NULL CHECK (version >= 1),
  name       text        NOT NULL,
  definition jsonb       NOT NULL,
  saved_at   timestamptz NOT NULL,
  PRIMARY KEY (journey_id, version)
);
