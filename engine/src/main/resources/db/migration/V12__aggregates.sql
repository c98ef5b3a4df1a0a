-- Activity aggregates under typed keys (dev.tidings.activity.aggregate): the hash key names whose
-- aggregate it is and which aggregation and algorithm wrote it, the range key its period. Month, year
-- and all-time periods live in aggregates; day periods in aggregate_days, one partition a day, so a
-- day past its retention is dropped in one statement instead of deleted row by row.
CREATE TABLE aggregates (
  hash_key   text             NOT NULL,
  range_key  text             NOT NULL,
  value      double precision NOT NULL,
  updated_at timestamptz      NOT NULL DEFAULT now(),
  PRIMARY KEY (hash_key, range_key)
);

-- reads by prefix ("every aggregate of user u-1"): a LIKE 'prefix%' needs the pattern opclass
CREATE INDEX aggregates_hash_prefix ON aggregates (hash_key text_pattern_ops);

CREATE TABLE aggregate_days (
  hash_key   text             NOT NULL,
  day        date             NOT NULL,
  value      double precision NOT NULL,
  updated_at timestamptz      NOT NULL DEFAULT now(),
  PRIMARY KEY (hash_key, day)
) PARTITION BY RANGE (day);

CREATE INDEX aggregate_days_hash_prefix ON aggregate_days (hash_key text_pattern_ops);
