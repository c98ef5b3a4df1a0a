-- Who has counted into a people-measured aggregation, one row per day and user holding the aggregates
-- (hash keys) that user counted into that day, instead of a row per day, aggregate and user: a counting
-- round writes one row per person it saw rather than one per pair of items a session made, and the
-- row lock on (day, user) still decides between concurrent rounds (dev.tidings.activity.aggregate.
-- DistinctPeople). "added" holds what the last update added, which the round reads back as new (NULL
-- on a row just inserted, whose keys are all new).
ALTER TABLE aggregate_people RENAME TO aggregate_people_by_key;

CREATE TABLE aggregate_people (
  day       date NOT NULL,
  user_id   text COLLATE "C" NOT NULL,
  hash_keys text[] COLLATE "C" NOT NULL,
  added     text[] COLLATE "C",
  PRIMARY KEY (day, user_id)
) PARTITION BY RANGE (day);

-- the day partitions keep their names (dev.tidings.storage.DayPartitions finds them by name)
DO $$
DECLARE
  part record;
  d date;
BEGIN
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'aggregate_people_by_key'::regclass
  LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', part.relname, part.relname || '_by_key');
    d := to_date(right(part.relname, 8), 'YYYYMMDD');
    EXECUTE format('CREATE TABLE %I PARTITION OF aggregate_people FOR VALUES FROM (%L) TO (%L)',
                   part.relname, d, d + 1);
  END LOOP;
END $$;

INSERT INTO aggregate_people (day, user_id, hash_keys)
SELECT day, user_id, array_agg(hash_key ORDER BY hash_key)
  FROM aggregate_people_by_key
 GROUP BY day, user_id;

DROP TABLE aggregate_people_by_key;
