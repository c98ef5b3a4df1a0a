-- Item configurations (seed 05's conversion optimiser): the ways an item can be shown, with the
-- impressions and conversions counted for each. Counts are added in batches (summed per configuration,
-- written in key order), and a page keeps a fifth free so that an update usually stays on its page
-- (a HOT update: no index write). Item ids are catalog product ids, not a foreign key: configurations
-- may be set up before the product is imported. The "C" collation makes the primary key's order the
-- order the optimisation scans and pages in.
CREATE TABLE item_configurations (
    item_id          text COLLATE "C" NOT NULL,
    configuration_id text COLLATE "C" NOT NULL,
    attributes       jsonb       NOT NULL DEFAULT '{}',
    impressions      bigint      NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    conversions      bigint      NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    PRIMARY KEY (item_id, configuration_id)
) WITH (fillfactor = 80);

-- Which configuration is current: one row per item, so "exactly one current" holds by construction,
-- and changing it is one row's update. The foreign key keeps the current configuration from being
-- deleted while it is current.
CREATE TABLE item_current_configurations (
    item_id          text COLLATE "C" PRIMARY KEY,
    configuration_id text COLLATE "C" NOT NULL,
    changed_at       timestamptz NOT NULL,
    FOREIGN KEY (item_id, configuration_id) REFERENCES item_configurations (item_id, configuration_id)
);
