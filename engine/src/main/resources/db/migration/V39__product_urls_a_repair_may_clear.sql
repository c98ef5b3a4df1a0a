-- A product's image or landing URL that an earlier version stored and today's rules refuse is read as
-- absent (dev.tidings.catalog.StoredProduct), and `tidings migrate` clears it (ProductRepair) so that the
-- product is read without a warning: the card shows no picture, a click goes to the shop's home. Every
-- write still gives both URLs; only the repair stores NULL. Dropping NOT NULL rewrites nothing.
ALTER TABLE products ALTER COLUMN image_url DROP NOT NULL;
ALTER TABLE products ALTER COLUMN landing_url DROP NOT NULL;
