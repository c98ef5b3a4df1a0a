-- Aggregations declared as data (dev.tidings.activity.aggregate.AggregationDefinitions): adding,
-- changing or disabling one is a row, read by every node within seconds; a new one counts the events
-- that arrive after it.
CREATE TABLE aggregation_definitions (
  name       text        PRIMARY KEY,
  definition jsonb       NOT NULL,
  enabled    boolean     NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO aggregation_definitions (name, definition) VALUES
  ('item_popularity', '{"events": ["view", "click", "add_to_cart", "purchase", "email_click"],
     "groupBy": ["item"], "scopes": ["day", "month", "all"], "measure": "events",
     "algorithm": "popularity"}'),
  ('user_brand', '{"events": ["view", "add_to_cart", "purchase"], "groupBy": ["user", "brand"],
     "scopes": ["month", "all"], "measure": "events", "algorithm": "affinity"}'),
  ('user_category', '{"events": ["view", "add_to_cart", "purchase"],
     "groupBy": ["user", "category"], "scopes": ["month", "all"], "measure": "events",
     "algorithm": "affinity"}'),
  ('user_item_purchases', '{"events": ["purchase"], "groupBy": ["user", "item"],
     "scopes": ["all"], "measure": "quantity", "algorithm": "buy_again"}');
