package dev.tidings.campaign;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A stored campaign. {@code version} grows with every change of the definition, so compiled templates
 * are cached per (id, version); {@code runId} names the bulk run once the campaign was sent.
 *
 * @param state as stored; {@link CampaignService#view} combines it with the run's own state
 */
public record Campaign(
    long id,
    CampaignDefinition definition,
    CampaignState state,
    int version,
    Optional<Long> runId,
    Instant createdAt,
    Instant updatedAt) {
  public Campaign {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
