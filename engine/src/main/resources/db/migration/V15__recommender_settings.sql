-- The live recommender's configuration (dev.tidings.recommend.blend): one row per algorithm (whether it
-- runs, its weight in the blend, its parameters) and one row of blender settings. Every node re-reads
-- both every couple of seconds, so a change through PUT /api/v1/recommenders/{name} applies without a
-- restart. An algorithm without a row runs with its defaults.
CREATE TABLE recommender_settings (
  name       text             PRIMARY KEY,
  enabled    boolean          NOT NULL DEFAULT true,
  weight     double precision NOT NULL CHECK (weight >= 0),
  params     jsonb            NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz      NOT NULL DEFAULT now()
);

CREATE TABLE recommender_blend (
  id             smallint    PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  exclude_bought boolean     NOT NULL DEFAULT false,
  brand_cap      integer     NOT NULL DEFAULT 3 CHECK (brand_cap >= 1),
  category_cap   integer     NOT NULL DEFAULT 4 CHECK (category_cap >= 1),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

INSERT INTO recommender_blend (id) VALUES (1);
