package dev.tidings.opentime;

import java.sql.Timestamp;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * The products each campaign's template names (table {@code campaign_template_products}), told by the
 * campaign capability when it writes the campaign's emails, so that an email's slots leave them out
 * without asking the campaign when the email is opened. A campaign told nothing yet (emails written
 * before this table) names none.
 */
public final class TemplateProductTable {
  private final Jdbi jdbi;
  private final InstantSource clock;

  public TemplateProductTable(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /** Replaces what the campaign's template names. */
  public void put(long campaignId, Set<String> productIds) {
    jdbi.useHandle(handle -> handle
        .createUpdate("""
            INSERT INTO campaign_template_products (campaign_id, product_ids, written_at)
            VALUES (:campaign, :ids, :now)
            ON CONFLICT (campaign_id) DO UPDATE
              SET product_ids = excluded.product_ids, written_at = excluded.written_at""")
        .bind("campaign", campaignId)
        .bindArray("ids", String.class, List.copyOf(productIds))
        .bind("now", Timestamp.from(clock.instant()))
        .execute());
  }

  /** What the campaign's template names; empty when nothing was told. */
  public Set<String> of(long campaignId) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT product_ids FROM campaign_template_products WHERE campaign_id = :campaign")
        .bind("campaign", campaignId)
        .map((rs, ctx) -> Set.copyOf(new LinkedHashSet<>(
            Arrays.asList((String[]) rs.getArray("product_ids").getArray()))))
        .findOne()
        .orElse(Set.of()));
  }
}
