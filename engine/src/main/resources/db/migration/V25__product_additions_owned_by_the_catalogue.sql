-- The products new to the catalogue are the catalogue's own record (dev.tidings.catalog.ProductAdditions):
-- its trigger queues each new available product of a brand in the storing transaction, whichever way it
-- came (API or bulk import), and the news of other capabilities claims them through the catalogue
-- (dev.tidings.notify.ProductNews calls ProductAdditions.claim inside its own transaction). The table and
-- trigger keep what V18 made, under the catalogue's names.
DROP TRIGGER products_to_news ON products;
DROP FUNCTION products_to_news();
ALTER TABLE product_news RENAME TO product_additions;
ALTER TABLE product_additions RENAME CONSTRAINT product_news_pkey TO product_additions_pkey;

CREATE FUNCTION products_to_additions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_additions (product_id, title, brand, landing_url, image_url)
    SELECT id, title, brand, landing_url, image_url FROM stored WHERE available AND brand IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER products_to_additions AFTER INSERT ON products
  REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION products_to_additions();
