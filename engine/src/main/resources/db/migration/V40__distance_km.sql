-- The great-circle distance in km between two positions (degrees) on a 6,371 km sphere, by the
-- haversine formula: the one definition every statement uses that asks how far a subscriber is (a
-- segment's "near", a place's news to those around it). Rounding can carry the haversine term of two
-- almost antipodal positions a little above 1, which asin refuses ("input is out of range"): the term
-- is clamped to 1, the distance then being half the circumference. A position with a NULL coordinate is
-- no position and has no distance. Not STRICT and one expression, so that PostgreSQL inlines it into the
-- statement that calls it (no call per row; a STRICT function around least() would not be inlined).
CREATE FUNCTION tidings_distance_km(
    lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
  RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE WHEN lat1 IS NULL OR lon1 IS NULL OR lat2 IS NULL OR lon2 IS NULL THEN NULL
      ELSE 2 * 6371 * asin(least(1, sqrt(
        power(sin(radians(lat2 - lat1) / 2), 2)
        + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lon2 - lon1) / 2), 2))))
    END
  $$;
