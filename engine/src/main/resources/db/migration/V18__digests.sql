-- Content can carry a picture for the digest email (a product's image, an artwork).
ALTER TABLE content ADD COLUMN image_url text;

-- A product new to the catalogue is news for the followers of its brand (dev.tidings.notify.ProductNews):
-- a trigger queues every new available product of a brand here in the storing transaction, whichever way
-- it came (API or bulk import), and the news job turns what it claims into published content, a fan-out
-- per brand, deleting the claims in the same transaction, so a product is told once however many nodes
-- run the job.
CREATE TABLE product_news (
  product_id  text PRIMARY KEY,
  title       text NOT NULL,
  brand       text NOT NULL,
  landing_url text NOT NULL,
  image_url   text NOT NULL
);

CREATE FUNCTION products_to_news() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_news (product_id, title, brand, landing_url, image_url)
    SELECT id, title, brand, landing_url, image_url FROM stored WHERE available AND brand IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER products_to_news AFTER INSERT ON products
  REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION products_to_news();

-- What each digest email held, written with the flush that marks it sent: the dashboard shows digests
-- sent and what they told, and support can answer "why did I get this".
CREATE TABLE digests_sent (
  campaign_id   bigint      NOT NULL,
  run_id        bigint      NOT NULL,
  subscriber_id text        NOT NULL,
  sent_at       timestamptz NOT NULL,
  content_ids   text[]      NOT NULL,
  PRIMARY KEY (campaign_id, run_id, subscriber_id)
);
CREATE INDEX digests_sent_by_time ON digests_sent (sent_at);
