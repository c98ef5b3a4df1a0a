package dev.tidings.campaign;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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
  private final ConcurrentHashMap<Long, Entry> entries = new ConcurrentHashMap<>();

  CompiledCampaigns(LongFunction<Optional<Campaign>> load, InstantSource clock) {
    this.load = load;
    this.clock = clock;
  }

  Optional<Entry> get(long campaignId) {
    Instant now = clock.instant();
    Entry cached = entries.get(campaignId);
    if (cached != null && cached.checkedAt().plus(RECHECK).isAfter(now)) return Optional.of(cached);
    Optional<Campaign> stored = load.apply(campaignId);
    if (stored.isEmpty()) {
      entries.remove(campaignId);
      return Optional.empty();
    }
    Campaign campaign = stored.get();
    List<CampaignTemplates.Compiled> templates =
        cached != null && cached.campaign().version() == campaign.version()
            ? cached.variants()
            : CampaignTemplates.compileVariants(campaign.definition());
    if (entries.size() >= MAX_ENTRIES) entries.clear();
    Entry fresh = new Entry(campaign, templates, now);
    entries.put(campaignId, fresh);
    return Optional.of(fresh);
  }

  /** Compiled from a campaign at hand (a preview), through the same cache. */
  Entry of(Campaign campaign) {
    Entry cached = entries.get(campaign.id());
    if (cached != null && cached.campaign().version() == campaign.version()) return cached;
    Entry fresh = new Entry(
        campaign, CampaignTemplates.compileVariants(campaign.definition()), clock.instant());
    entries.put(campaign.id(), fresh);
    return fresh;
  }
}
