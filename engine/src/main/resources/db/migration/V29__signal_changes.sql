-- Nodes keep each user's recommender signals (their aggregates and what they follow) warm in memory.
-- Every statement that changes them tells the nodes whose signals changed, whoever wrote it (counting
-- rounds, rebuilds, imports, retention, erasure, the follows API): NOTIFY is delivered on commit, in
-- commit order, to every listening node. One line per user (the key part that names them, as the
-- aggregate keys write it), up to 500 per notification; a statement that changes more users than
-- 20,000 says '*' (everyone), and the nodes read their signals again.
CREATE FUNCTION tidings_signals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  users text[];
  chunk text;
BEGIN
  IF TG_TABLE_NAME = 'follows' THEN
    SELECT array_agg(DISTINCT 's@' || replace(replace(subscriber_id, '\', '\\'), ':', '\:'))
      INTO users FROM changed;
  ELSE
    -- the prefix test first: most rows are items' and pairs', and it is far cheaper than the pattern
    SELECT array_agg(DISTINCT u) INTO users FROM (
      SELECT substring(hash_key FROM '^s@user:(s@(?:[^:\\]|\\.)*)') AS u FROM changed
       WHERE starts_with(hash_key, 's@user:')) x
     WHERE u IS NOT NULL;
  END IF;
  IF users IS NULL THEN
    RETURN NULL;
  END IF;
  IF cardinality(users) > 20000 THEN
    PERFORM pg_notify('tidings_signals', TG_TABLE_SCHEMA || E'\n*');
    RETURN NULL;
  END IF;
  FOR chunk IN
    SELECT string_agg(u, E'\n') FROM unnest(users) WITH ORDINALITY AS t(u, i) GROUP BY (i - 1) / 500
  LOOP
    PERFORM pg_notify('tidings_signals', TG_TABLE_SCHEMA || E'\n' || chunk);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER aggregates_signals_inserted AFTER INSERT ON aggregates
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
CREATE TRIGGER aggregates_signals_updated AFTER UPDATE ON aggregates
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
CREATE TRIGGER aggregates_signals_deleted AFTER DELETE ON aggregates
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();

CREATE TRIGGER aggregate_days_signals_inserted AFTER INSERT ON aggregate_days
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
CREATE TRIGGER aggregate_days_signals_updated AFTER UPDATE ON aggregate_days
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
CREATE TRIGGER aggregate_days_signals_deleted AFTER DELETE ON aggregate_days
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();

CREATE TRIGGER follows_signals_inserted AFTER INSERT ON follows
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
CREATE TRIGGER follows_signals_updated AFTER UPDATE ON follows
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
CREATE TRIGGER follows_signals_deleted AFTER DELETE ON follows
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tidings_signals_changed();
