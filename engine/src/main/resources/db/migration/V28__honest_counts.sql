-- What the recommender counts, made honest (docs/recommendation-quality.md):
-- * buy-again counts orders (purchase events), not quantities: a wholesaler's 144 mugs is one order, and
--   ranks no higher than a household's one. Upgrading: `tidings aggregates rebuild user_item_purchases`
--   recounts the stored history this way; until then older months hold quantities.
-- * co-occurrence counts people, once a day per pair, so one visitor (or bot) repeating a pair in many
--   sessions moves it by one a day, as popularity already does.
-- * purchases weigh more than views in popularity: the buyers of an item are counted apart (people a
--   day), and the popularity algorithm adds them with its purchaseWeight.
UPDATE aggregation_definitions
   SET definition = jsonb_set(definition, '{measure}', '"events"'), updated_at = now()
 WHERE name = 'user_item_purchases';

UPDATE aggregation_definitions
   SET definition = jsonb_set(definition, '{measure}', '"people"'), updated_at = now()
 WHERE name IN ('co_view', 'co_purchase');

INSERT INTO aggregation_definitions (name, definition) VALUES
  ('item_buyers', '{"events": ["purchase"], "groupBy": ["item"], "scopes": ["day", "month", "all"],
     "measure": "people", "algorithm": "popularity"}')
ON CONFLICT (name) DO NOTHING;
