package dev.tidings.campaign;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.CacheClock;
import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.ThompsonSampling;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Which variant of an experiment a recipient gets. A/B: a hash of campaign and subscriber places each
 * subscriber at a fixed point of [0, 1), the same on every node and every retry; the test cohort is the
 * points below {@code testShare}, split evenly, and the rest are held back for the winner. Bandit: a
 * Thompson draw from the variants' results, read at most every {@link #REFRESH} per campaign so that a
 * worker does not query the funnel per email. Thread-safe.
 */
final class VariantChooser {
  static final Duration REFRESH = Duration.ofSeconds(2);

  /** A variant to send, or none: the recipient waits for the winner. */
  sealed interface Choice {
    record Send(int variant) implements Choice {}

    record HeldBack() implements Choice {}
  }

  private final ExperimentLedger ledger;
  private final Cache<Long, List<Proportion>> results;

  VariantChooser(ExperimentLedger ledger, InstantSource clock) {
    this.ledger = ledger;
    this.results = Caffeine.newBuilder()
        .maximumSize(1_000)
        .expireAfterWrite(REFRESH)
        .ticker(CacheClock.of(clock))
        .build();
  }

  Choice choose(long campaignId, Experiment experiment, String subscriberId) {
    int variants = experiment.variants().size();
    return switch (experiment.allocation()) {
      case AB -> {
        double point = point(campaignId, subscriberId);
        yield point < experiment.testShare()
            ? new Choice.Send(
                Math.min(variants - 1, (int) (point / experiment.testShare() * variants)))
            : new Choice.HeldBack();
      }
      case BANDIT ->
        new Choice.Send(
            ThompsonSampling.choose(results(campaignId, experiment), ThreadLocalRandom.current()));
    };
  }

  private List<Proportion> results(long campaignId, Experiment experiment) {
    List<Proportion> cached = results.getIfPresent(campaignId);
    if (cached != null) return cached;
    List<Proportion> fresh = ledger.results(campaignId, experiment);
    results.put(campaignId, fresh);
    return fresh;
  }

  /**
   * The subscriber's fixed point in [0, 1) for this campaign: {@link String#hashCode} is defined by the
   * language, and the SplitMix64 finaliser spreads it with the campaign id over 53 bits.
   */
  static double point(long campaignId, String subscriberId) {
    long z = campaignId * 0x9E3779B97F4A7C15L + subscriberId.hashCode();
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (z >>> 11) * 0x1.0p-53;
  }
}
