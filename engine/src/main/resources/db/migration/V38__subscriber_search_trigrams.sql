-- The operator's subscriber search (the dashboard's Subscribers page, GET /api/v1/subscribers?q=): an id
-- or email by its start, a name by any part, ignoring case. Without indexes for all three a search that
-- finds no one reads every subscriber (0.4-0.9 s at 300,000). With them each test is a range of its own
-- index, and the planner joins the three (a BitmapOr): a miss costs well under a millisecond.
--
-- The starts of ids and emails: btree indexes in text_pattern_ops, which serve LIKE 'x%' whatever the
-- database's collation (the default operator class serves it only under collation C).
--
-- Any part of a name: a trigram index (pg_trgm) serves name ILIKE '%x%' once the text has three
-- characters or more. pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the owner of
-- the database may create it. It goes in schema public, where every schema's statements find it
-- (Tidings' own schema may be another). Where it cannot be created (a server without contrib, a role
-- that may not), the migration warns and leaves the name's index out: the search answers the same, only
-- by reading the table. Create the extension later and build the index by hand, as below, to get it.
--
-- On a database that already holds many subscribers, building the indexes here holds the table's
-- writes until they are built. Build them beforehand without that, on the live database, and this
-- migration finds them there and skips them:
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS subscribers_id_start ON subscribers (lower(id) text_pattern_ops);
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS subscribers_email_start
--     ON subscribers (lower(email) text_pattern_ops);
--   CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS subscribers_name_part
--     ON subscribers USING gin (name public.gin_trgm_ops);
CREATE INDEX IF NOT EXISTS subscribers_id_start ON subscribers (lower(id) text_pattern_ops);
CREATE INDEX IF NOT EXISTS subscribers_email_start ON subscribers (lower(email) text_pattern_ops);

DO $$
DECLARE
  home name;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
  EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'pg_trgm cannot be created (%): subscriber search by name goes without its index',
      SQLERRM;
  END;
  -- wherever it was created, by this or by an operator before
  SELECT n.nspname INTO home
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  IF home IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS subscribers_name_part ON subscribers USING gin (name %I.gin_trgm_ops)',
      home);
  END IF;
END
$$;
