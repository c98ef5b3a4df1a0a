-- The catalogue products each campaign's template names (by a link to their landing URL or by their
-- image URL), as found when the campaign's emails were written (dev.tidings.opentime.TemplateProductTable):
-- an email's open-time slots leave them out without asking the campaign at open time. One row per
-- campaign, rewritten when its template or the catalogue's answer may have changed.
CREATE TABLE campaign_template_products (
  campaign_id bigint      PRIMARY KEY,
  product_ids text[]      NOT NULL,
  written_at  timestamptz NOT NULL
);
