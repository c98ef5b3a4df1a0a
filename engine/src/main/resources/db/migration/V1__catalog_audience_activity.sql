-- Catalog, audience and raw activity intake.
-- Tables are plain (not partitioned) on purpose; comments note how each one partitions later without rework.

-- Products: one row per product id. Updated by upsert; created_at is kept across updates.
CREATE TABLE products (
    id          text        PRIMARY KEY,
    title       text        NOT NULL,
    brand       text,
    category    text,
    price       numeric     NOT NULL CHECK (price >= 0),
    currency    char(3)     NOT NULL,
    image_url   text        NOT NULL,
    landing_url text        NOT NULL,
    available   boolean     NOT NULL DEFAULT true,
    attributes  jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- Subscribers: an email belongs to one subscriber, compared case-insensitively, stored as given.
CREATE TABLE subscribers (
    id         text             PRIMARY KEY,
    email      text             NOT NULL,
    name       text,
    locale     text             NOT NULL DEFAULT 'en',
    time_zone  text             NOT NULL DEFAULT 'UTC',
    latitude   double precision CHECK (latitude BETWEEN -90 AND 90),
    longitude  double precision CHECK (longitude BETWEEN -180 AND 180),
    city       text,
    country    char(2),
    consent    text             NOT NULL DEFAULT 'subscribed'
                                CHECK (consent IN ('subscribed', 'pending', 'unsubscribed')),
    created_at timestamptz      NOT NULL,
    updated_at timestamptz      NOT NULL,
    CHECK ((latitude IS NULL) = (longitude IS NULL))
);
CREATE UNIQUE INDEX subscribers_email_key ON subscribers (lower(email));

-- Follows: subscriber -> entity. The (target_type, target_id, subscriber_id) index serves the fan-out of
-- published content to followers as an index-only keyset scan, in subscriber id order.
CREATE TABLE follows (
    subscriber_id text        NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
    target_type   text        NOT NULL CHECK (target_type IN ('brand', 'artist', 'gallery', 'store', 'category')),
    target_id     text        NOT NULL,
    followed_at   timestamptz NOT NULL,
    PRIMARY KEY (subscriber_id, target_type, target_id)
);
CREATE INDEX follows_followers ON follows (target_type, target_id, subscriber_id);

-- Suppressions: addresses never to mail, whoever they belong to (also addresses of no subscriber).
-- The key is lower(email), so sending checks one index probe per address.
CREATE TABLE suppressions (
    email      text        NOT NULL,
    reason     text        NOT NULL CHECK (reason IN ('bounce', 'complaint', 'unsubscribe', 'manual')),
    created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX suppressions_email_key ON suppressions (lower(email));

-- Raw activity events as received. seq orders intake for the aggregation that reads them incrementally.
-- To partition by occurred_at later, the event id key becomes (event_id, occurred_at): a replayed event
-- carries its original timestamp, so deduplication still holds within a partition.
CREATE TABLE activity_events (
    seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id    text,
    user_id     text        NOT NULL,
    type        text        NOT NULL
                            CHECK (type IN ('view', 'click', 'add_to_cart', 'purchase', 'follow', 'open', 'email_click')),
    item_id     text        NOT NULL,
    occurred_at timestamptz NOT NULL,
    quantity    integer     NOT NULL DEFAULT 1 CHECK (quantity >= 1),
    price       numeric     CHECK (price >= 0),
    received_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX activity_events_event_id ON activity_events (event_id) WHERE event_id IS NOT NULL;
CREATE INDEX activity_events_by_user ON activity_events (user_id, occurred_at);
