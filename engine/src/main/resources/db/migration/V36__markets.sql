-- Markets (dev.tidings.catalog.Markets): where products are sold, each in one currency and written in one
-- locale, so that one email shows one currency. A subscriber belongs to the market named on them, else the
-- market listing their country, else the default market.
CREATE TABLE markets (
  code       text        PRIMARY KEY CHECK (code ~ '^[A-Z][A-Z0-9_]{1,15}$'),
  currency   char(3)     NOT NULL,
  locale     text        NOT NULL,
  countries  text[]      NOT NULL DEFAULT '{}',
  is_default boolean     NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);
-- at most one default market
CREATE UNIQUE INDEX markets_one_default ON markets (is_default) WHERE is_default;

-- A product's price in a market. Without a row a product is sold in a market only when its own currency
-- is the market's (at its own price). No foreign key to products, so that products stay truncatable: a
-- product's delete deletes its prices, and every read joins products, so a price of no product shows nowhere.
CREATE TABLE product_prices (
  product_id text    NOT NULL,
  market     text    NOT NULL REFERENCES markets (code) ON DELETE CASCADE,
  price      numeric NOT NULL CHECK (price >= 0),
  PRIMARY KEY (product_id, market)
);
CREATE INDEX product_prices_by_market ON product_prices (market);
