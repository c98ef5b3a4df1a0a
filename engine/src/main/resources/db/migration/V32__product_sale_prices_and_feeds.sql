-- Product feeds (dev.tidings.catalog): a sale price beside the regular one, the group of variants a product
-- belongs to, and where the product came from. A product that came from the scheduled product feed has
-- source 'feed': only those are marked unavailable when they leave the feed; any other write (the API, a
-- file import) makes the product the shop's own again (source NULL).
ALTER TABLE products ADD COLUMN sale_price numeric CHECK (sale_price >= 0);
ALTER TABLE products ADD COLUMN item_group_id text;
ALTER TABLE products ADD COLUMN source text CHECK (source IN ('feed'));
ALTER TABLE products ADD CONSTRAINT products_sale_below_price CHECK (sale_price IS NULL OR sale_price < price);
CREATE INDEX products_from_feed ON products (id) WHERE source = 'feed';

-- What each queued product is news as: new to the catalogue, or back in stock after being unavailable.
-- notify decides whether to tell the second kind (TIDINGS_BACK_IN_STOCK_NEWS).
ALTER TABLE product_additions ADD COLUMN back_in_stock boolean NOT NULL DEFAULT false;

-- An import or feed fetch whose new products are not news sets tidings.news to 'off' in its transaction
-- (SET LOCAL): the products are stored, nobody is told.
CREATE OR REPLACE FUNCTION products_to_additions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tidings.news', true) = 'off' THEN
    RETURN NULL;
  END IF;
  INSERT INTO product_additions (product_id, title, brand, landing_url, image_url)
    SELECT id, title, brand, landing_url, image_url FROM stored WHERE available AND brand IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- A product that was unavailable and is available again, in one statement for a whole chunk of an import.
CREATE FUNCTION products_back_in_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tidings.news', true) = 'off' THEN
    RETURN NULL;
  END IF;
  INSERT INTO product_additions (product_id, title, brand, landing_url, image_url, back_in_stock)
    SELECT n.id, n.title, n.brand, n.landing_url, n.image_url, true
      FROM stored n JOIN before o ON o.id = n.id
     WHERE n.available AND NOT o.available AND n.brand IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER products_back_in_stock AFTER UPDATE ON products
  REFERENCING OLD TABLE AS before NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION products_back_in_stock();
