-- Activity events carry the browsing session (a visit, a basket, an order) that item co-occurrence
-- is counted within, and free attributes.
ALTER TABLE activity_events ADD COLUMN session_id text, ADD COLUMN attributes jsonb;
CREATE INDEX activity_events_by_session ON activity_events (session_id, seq) WHERE session_id IS NOT NULL;

-- Every stored event waits here until the aggregation has counted it (dev.tidings.activity.aggregate.
-- BacklogAggregation): a trigger fills it in the storing transaction, whichever way the event came in
-- (API, queue, import), and the aggregation deletes what it counts in the transaction that writes the
-- counts, so an event is counted once however many nodes count.
CREATE TABLE aggregation_backlog (seq bigint PRIMARY KEY)
  WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);

CREATE FUNCTION activity_events_to_backlog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO aggregation_backlog (seq) SELECT seq FROM stored;
  RETURN NULL;
END $$;

CREATE TRIGGER activity_events_to_backlog AFTER INSERT ON activity_events
  REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION activity_events_to_backlog();

-- Aggregates are read by hash-key prefix: in the C collation the primary key's index serves a
-- LIKE 'prefix%' by itself, so the second (pattern) index, written on every insert, goes. Room left in
-- each page lets a count's update stay on its page without touching the index (a HOT update).
DROP INDEX aggregates_hash_prefix;
DROP INDEX aggregate_days_hash_prefix;
ALTER TABLE aggregates ALTER COLUMN hash_key TYPE text COLLATE "C";
ALTER TABLE aggregates ALTER COLUMN range_key TYPE text COLLATE "C";
ALTER TABLE aggregates SET (fillfactor = 80);
ALTER TABLE aggregate_days ALTER COLUMN hash_key TYPE text COLLATE "C";

-- Aggregations the recommenders read beyond the first four: what a user viewed lately (per day, for
-- "recently viewed"), and items seen or bought in the same session (co-occurrence, both ways; all
-- time only: pairs are most of what counting writes, so each is written once per round).
UPDATE aggregation_definitions
   SET definition = jsonb_set(definition, '{scopes}', '["month", "all"]'), updated_at = now()
 WHERE name = 'user_item_purchases';

INSERT INTO aggregation_definitions (name, definition) VALUES
  ('user_item_views', '{"events": ["view", "click", "add_to_cart"], "groupBy": ["user", "item"],
     "scopes": ["day"], "measure": "events", "algorithm": "recently_viewed"}'),
  ('co_view', '{"events": ["view", "click", "add_to_cart"], "groupBy": ["item", "co_item"],
     "scopes": ["all"], "measure": "events", "algorithm": "cooccurrence"}'),
  ('co_purchase', '{"events": ["purchase"], "groupBy": ["item", "co_item"],
     "scopes": ["all"], "measure": "events", "algorithm": "cooccurrence"}');
