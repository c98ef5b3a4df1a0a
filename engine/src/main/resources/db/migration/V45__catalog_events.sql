-- The catalogue tells what happens to its products as events (dev.tidings.events.catalog), written to the
-- event outbox by the storing statement's own triggers, whichever way a product came (API, bulk import,
-- product feed): one outbox row per statement, however many products it stored. The notifications hear
-- new and back-in-stock products through their listener, so product_additions, which they used to claim
-- inside their own transaction, goes. An import that says its products are not news (tidings.news off)
-- tells nothing, as before.

-- A product's event, with its id in the data as the records have it.
CREATE FUNCTION catalog_event(kind text, product text, data jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT event_outbox_event(
    'dev.tidings.catalog.' || kind, product, data || jsonb_build_object('productId', product))
$$;

DROP TRIGGER products_to_additions ON products;
DROP FUNCTION products_to_additions();
DROP TRIGGER products_back_in_stock ON products;
DROP FUNCTION products_back_in_stock();

CREATE FUNCTION products_added_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  told jsonb;
BEGIN
  IF current_setting('tidings.news', true) = 'off' THEN
    RETURN NULL;
  END IF;
  SELECT jsonb_agg(catalog_event('product_added', id, jsonb_build_object(
           'title', title, 'brand', brand, 'url', landing_url, 'imageUrl', image_url)) ORDER BY id)
    INTO told
    FROM stored WHERE available;
  IF told IS NOT NULL THEN
    PERFORM event_outbox_append(told);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER products_added_events AFTER INSERT ON products
  REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION products_added_events();

-- Back in stock (unavailable, then available again) and a lower price, in one statement for a whole
-- chunk of an import.
CREATE FUNCTION products_changed_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  told jsonb;
BEGIN
  IF current_setting('tidings.news', true) = 'off' THEN
    RETURN NULL;
  END IF;
  SELECT jsonb_agg(event ORDER BY id, kind) INTO told FROM (
    SELECT n.id, 1 AS kind, catalog_event('back_in_stock', n.id, jsonb_build_object(
             'title', n.title, 'brand', n.brand, 'url', n.landing_url, 'imageUrl', n.image_url)) AS event
      FROM stored n JOIN before o ON o.id = n.id
     WHERE n.available AND NOT o.available
    UNION ALL
    SELECT n.id, 2, catalog_event('price_dropped', n.id, jsonb_build_object(
             'from', o.price, 'to', n.price, 'currency', n.currency))
      FROM stored n JOIN before o ON o.id = n.id
     WHERE n.price < o.price AND n.currency = o.currency) AS changed;
  IF told IS NOT NULL THEN
    PERFORM event_outbox_append(told);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER products_changed_events AFTER UPDATE ON products
  REFERENCING OLD TABLE AS before NEW TABLE AS stored FOR EACH STATEMENT
  EXECUTE FUNCTION products_changed_events();

-- What was queued and not yet claimed is told, so an upgrade loses no news.
SELECT event_outbox_append(jsonb_agg(catalog_event(
         CASE WHEN back_in_stock THEN 'back_in_stock' ELSE 'product_added' END,
         product_id,
         jsonb_build_object('title', title, 'brand', brand, 'url', landing_url, 'imageUrl', image_url))
       ORDER BY product_id))
  FROM product_additions
HAVING count(*) > 0;

DROP TABLE product_additions;
