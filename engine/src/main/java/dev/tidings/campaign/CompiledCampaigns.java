package dev.tidings.campaign;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * Campaigns with their templates compiled, cached per campaign and checked against the stored version
 * at most every {@link #RECHECK}: a worker writing thousands of emails per second reads the campaign
 * row a few times a minute and compiles each version once. A bulk run's definition cannot change (a
 * RUNNING campaign is not editable); the recheck is for triggered sends of an edited draft.
 */
final class CompiledCampaigns {
  static final Duration RECHECK = Duration.ofSeconds(10);
  private static final int MAX_ENTRIES = 10_000;

  /** The campaign and its templates, one set per variant of its experiment (control first). */
  record Entry(Campaign campaign, List<CampaignTemplates.Compiled> variants, Instant checkedAt) {
    CampaignTemplates.Compiled templates() {
      return variants.getFirst();
    }
  }

  private final LongFunction<Optional<Campaign>> load;
  private final InstantSource clock;
  // No expiry: a recheck that finds the same version keeps the compiled templates.
  private final Cache<Long, Entry> entries =
      Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

  CompiledCampaigns(LongFunction<Optional<Campaign>> load, InstantSource clock) {
    this.load = load;
    this.clock = clock;
  }

  Optional<Entry> get(long campaignId) {
    Instant now = clock.instant();
    Entry cached = entries.getIfPresent(campaignId);
    if (cached != null && cached.checkedAt().plus(RECHECK).isAfter(now)) return Optional.of(cached);
    Optional<Campaign> stored = load.apply(campaignId);
    if (stored.isEmpty()) {
      entries.invalidate(campaignId);
      return Optional.empty();
    }
    Campaign campaign = stored.get();
    List<CampaignTemplates.Compiled> templates =
        cached != null && cached.campaign().version() == campaign.version()
            ? cached.variants()
            : CampaignTemplates.compileVariants(campaign.definition());
    Entry fresh = new Entry(campaign, templates, now);
    entries.put(campaignId, fresh);
    return Optional.of(fresh);
  }

  /** Compiled from a campaign at hand (a preview), through the same cache. */
  Entry of(Campaign campaign) {
    Entry cached = entries.getIfPresent(campaign.id());
    if (cached != null && cached.campaign().version() == campaign.version()) return cached;
    Entry fresh = new Entry(
        campaign, CampaignTemplates.compileVariants(campaign.definition()), clock.instant());
    entries.put(campaign.id(), fresh);
    return fresh;
  }
}
