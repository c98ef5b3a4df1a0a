-- Who has counted into a people-measured aggregation (dev.tidings.activity.aggregate.DistinctPeople):
-- a row per day, aggregate (its hash key: the aggregation and what it groups by) and user, inserted the
-- first time that user's event counts there that day. A counting round adds one for each row it
-- inserted, so an item's popularity grows by one per person a day however often the person repeats,
-- and the primary key decides between concurrent rounds. One partition a day, dropped with the day
-- partitions of aggregate_days.
CREATE TABLE aggregate_people (
  day      date NOT NULL,
  hash_key text COLLATE "C" NOT NULL,
  user_id  text COLLATE "C" NOT NULL,
  PRIMARY KEY (day, hash_key, user_id)
) PARTITION BY RANGE (day);

-- Popularity and trending are what everyone is shown: they count people, not events.
UPDATE aggregation_definitions
   SET definition = jsonb_set(definition, '{measure}', '"people"'), updated_at = now()
 WHERE name = 'item_popularity';
