-- The operator's subscriber search (the dashboard's Subscribers page, GET /api/v1/subscribers?q=): an id
-- or email by its start, a name by any part, ignoring case. Without an index a name cannot be matched
-- but by reading every subscriber, and a search that finds no one reads them all (0.4-0.8 s at 300,000).
-- A trigram index (pg_trgm) answers all three tests, ILIKE 'x%' and ILIKE '%x%' alike, from a few index
-- pages once the text has three characters or more.
--
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the owner of the database may
-- create it. It goes in schema public, where every schema's statements find it (Tidings' own schema may be
-- another). Where it cannot be created (a server without contrib, a role that may not), the migration
-- says so and leaves the index out: the search still answers the same, only by reading the table. Create
-- the extension later and build the index by hand, as below, to get it.
--
-- On a database that already holds many subscribers, building the index here holds the table's writes
-- until it is built. Build it beforehand without that, on the live database, and this migration finds it
-- there and skips it:
--   CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS subscribers_search
--     ON subscribers USING gin (id public.gin_trgm_ops, email public.gin_trgm_ops, name public.gin_trgm_ops);
DO $$
DECLARE
  home name;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
  EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'pg_trgm cannot be created (%): subscriber search goes without its index', SQLERRM;
  END;
  -- wherever it was created, by this or by an operator before
  SELECT n.nspname INTO home
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  IF home IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS subscribers_search ON subscribers'
        || ' USING gin (id %1$I.gin_trgm_ops, email %1$I.gin_trgm_ops, name %1$I.gin_trgm_ops)',
      home);
  END IF;
END
$$;
