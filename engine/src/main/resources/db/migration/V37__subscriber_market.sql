-- The market a subscriber belongs to when it is named on them (dev.tidings.audience.SubscriberService);
-- absent, the catalogue's market for their country or its default market applies. A code, not a
-- reference: markets are the catalogue's, and a subscriber may name one defined later.
ALTER TABLE subscribers ADD COLUMN market text CHECK (market ~ '^[A-Z][A-Z0-9_]{1,15}$');
