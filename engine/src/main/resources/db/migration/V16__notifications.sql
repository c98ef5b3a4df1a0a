-- Content people follow (dev.tidings.notify): new products of a brand, artworks, articles, shows and
-- events with a place and dates. Owners are the followed entities it belongs to ({"type": "brand",
-- "id": "acme"}); publishing fans it out to their followers, and to subscribers near its location.
CREATE TABLE content (
  id          text             PRIMARY KEY,
  type        text             NOT NULL CHECK (type IN ('product', 'artwork', 'article', 'show', 'event')),
  title       text             NOT NULL,
  url         text,
  owners      jsonb            NOT NULL DEFAULT '[]',
  latitude    double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude   double precision CHECK (longitude BETWEEN -180 AND 180),
  radius_km   double precision CHECK (radius_km > 0),
  starts_at   timestamptz,
  ends_at     timestamptz,
  published   boolean          NOT NULL DEFAULT false,
  created_at  timestamptz      NOT NULL,
  updated_at  timestamptz      NOT NULL,
  CHECK ((latitude IS NULL) = (longitude IS NULL))
);

-- Subscribers near a place, without a scan: a GiST index over their position as a point (longitude,
-- latitude), searched with a bounding box and then filtered by distance.
CREATE INDEX subscribers_position ON subscribers USING gist (point(longitude, latitude))
  WHERE latitude IS NOT NULL;

-- Each subscriber's notifications of one day (seed 04's per-day collections of per-user stacks): the
-- events appended in order, written 'type:object'; flushed counts those a digest has sent. A day is a
-- partition, so archiving it is dropping it.
CREATE TABLE notification_buckets (
  day           date    NOT NULL,
  subscriber_id text    NOT NULL,
  events        text[]  NOT NULL,
  flushed       integer NOT NULL DEFAULT 0,
  PRIMARY KEY (subscriber_id, day)
) PARTITION BY RANGE (day);
