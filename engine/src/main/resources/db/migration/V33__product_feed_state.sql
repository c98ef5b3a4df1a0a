-- The scheduled product feed (dev.tidings.catalog.ProductFeedFetch): per feed URL, the validators of the
-- last fetched answer for a conditional fetch (If-None-Match, If-Modified-Since) and when the feed was last
-- fetched successfully, shared by every node (whichever node fetches next sends them). A URL without a row
-- has never been imported: its first import is not news.
CREATE TABLE product_feed_state (
    url           text        PRIMARY KEY,
    etag          text,
    last_modified text,
    succeeded_at  timestamptz NOT NULL
);
