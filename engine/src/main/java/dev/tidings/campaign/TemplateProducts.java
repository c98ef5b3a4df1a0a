package dev.tidings.campaign;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.Set;
import java.util.function.Function;

/**
 * The catalogue products a campaign's template names, by a link to their landing URL or by their image
 * URL (every variant's HTML), found when the campaign's emails are written and told to whatever shows
 * products beside them (open-time slots, which do not show them again), as the experiment arm is decided
 * when an email is written. Told once per campaign version and node, and again after {@link #RETELL}, as
 * the catalogue's answer can change (a product added with a landing URL the template links). Thread-safe.
 */
public final class TemplateProducts {
  /** How long a told answer stands before the catalogue is asked again. */
  static final Duration RETELL = Duration.ofMinutes(5);

  /** Nothing is told: a node whose emails have no open-time slots to tell. */
  public static final TemplateProducts NONE =
      new TemplateProducts(urls -> Set.of(), (campaign, ids) -> {}, InstantSource.system());

  /** Where the products a campaign's template names are told. */
  @FunctionalInterface
  public interface Sink {
    void told(long campaignId, Set<String> productIds);
  }

  private record Told(int version, Instant at) {}

  private final Function<Collection<String>, Set<String>> productsAt;
  private final Sink sink;
  private final InstantSource clock;
  private final Cache<Long, Told> told =
      Caffeine.newBuilder().maximumSize(10_000).build();

  /**
   * @param productsAt the ids of the products whose landing or image URL is among the URLs
   * @param sink where the campaign's products are told
   */
  public TemplateProducts(
      Function<Collection<String>, Set<String>> productsAt, Sink sink, InstantSource clock) {
    this.productsAt = productsAt;
    this.sink = sink;
    this.clock = clock;
  }

  /** Tells what the campaign's template names, unless this version was told within {@link #RETELL}. */
  void tell(Campaign campaign) {
    Instant now = clock.instant();
    Told last = told.getIfPresent(campaign.id());
    if (last != null
        && last.version() == campaign.version()
        && last.at().plus(RETELL).isAfter(now)) return;
    sink.told(campaign.id(), productsAt.apply(TemplateLinks.urls(campaign.definition())));
    // a failed tell is not remembered: the next batch of emails tells again
    told.put(campaign.id(), new Told(campaign.version(), now));
  }
}
