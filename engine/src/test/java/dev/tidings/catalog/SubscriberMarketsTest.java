package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Currency;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SubscriberMarketsTest {
  private static final Market GB =
      new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB"), true);
  private static final Market DE =
      new Market("DE", Currency.getInstance("EUR"), Locale.GERMANY, List.of("DE", "AT"), false);

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final List<Market> defined = new ArrayList<>(List.of(GB, DE));
  private final AtomicInteger marketReads = new AtomicInteger();
  private final List<Set<String>> placementReads = new ArrayList<>();
  private final Map<String, SubscriberMarkets.Placement> placements = new HashMap<>(Map.of(
      "hans", placed(Optional.empty(), Optional.of("AT")),
      "ann", placed(Optional.of("DE"), Optional.of("GB")),
      "bo", placed(Optional.empty(), Optional.of("US"))));

  private final SubscriberMarkets markets = new SubscriberMarkets(
      () -> {
        marketReads.incrementAndGet();
        return List.copyOf(defined);
      },
      this::read,
      metrics,
      ticker);

  private static SubscriberMarkets.Placement placed(
      Optional<String> market, Optional<String> country) {
    return new SubscriberMarkets.Placement(market, country);
  }

  private synchronized Map<String, SubscriberMarkets.Placement> read(Collection<String> ids) {
    placementReads.add(Set.copyOf(ids));
    Map<String, SubscriberMarkets.Placement> found = new HashMap<>();
    for (String id : ids) if (placements.containsKey(id)) found.put(id, placements.get(id));
    return found;
  }

  private double counted() {
    return metrics.get(SubscriberMarkets.PLACEMENT_READS).counter().count();
  }

  @Test
  void a_subscriber_is_placed_by_the_market_they_name_then_their_country_then_the_default() {
    assertThat(markets.of("ann")).contains(DE);
    assertThat(markets.of("hans")).contains(DE);
    assertThat(markets.of("bo")).contains(GB);
    assertThat(markets.of("nobody")).as("unknown: the default market").contains(GB);
  }

  @Test
  void the_parts_of_one_email_read_its_subscribers_placement_once() {
    // the slot rules, then each of the email's five cards
    for (int i = 0; i < 6; i++) assertThat(markets.of("hans")).contains(DE);

    assertThat(placementReads).containsExactly(Set.of("hans"));
    assertThat(counted()).isEqualTo(1.0);
  }

  @Test
  void the_markets_are_read_once_per_period_for_every_subscriber() {
    markets.of("hans");
    markets.of("bo");
    assertThat(marketReads).hasValue(1);

    defined.remove(DE);
    nanos.addAndGet(SubscriberMarkets.KEEP.plus(Duration.ofSeconds(1)).toNanos());

    assertThat(markets.of("hans")).as("DE is gone: the default").contains(GB);
    assertThat(marketReads).hasValue(2);
  }

  @Test
  void with_no_markets_no_placement_is_read() {
    defined.clear();

    assertThat(markets.of("hans")).isEmpty();
    assertThat(markets.ofAll(List.of("hans", "bo"))).isEmpty();
    assertThat(placementReads).isEmpty();
  }

  @Test
  void a_batch_of_digests_reads_its_placements_in_one_read_and_its_emails_agree_with_it() {
    Map<String, Market> batch = markets.ofAll(List.of("hans", "ann", "bo", "hans", "nobody"));

    assertThat(placementReads).containsExactly(Set.of("hans", "ann", "bo", "nobody"));
    assertThat(batch)
        .containsEntry("hans", DE)
        .containsEntry("ann", DE)
        .containsEntry("bo", GB)
        .containsEntry("nobody", GB);
    // each digest's own lookup, and its slots', find what the batch read
    assertThat(markets.of("hans")).contains(DE);
    assertThat(markets.of("bo")).contains(GB);
    assertThat(placementReads).hasSize(1);
  }

  @Test
  void a_placement_changed_is_seen_once_it_is_no_longer_kept() {
    assertThat(markets.of("bo")).contains(GB);
    placements.put("bo", placed(Optional.of("DE"), Optional.empty()));
    assertThat(markets.of("bo")).as("kept").contains(GB);

    nanos.addAndGet(SubscriberMarkets.KEEP.plus(Duration.ofSeconds(1)).toNanos());

    assertThat(markets.of("bo")).contains(DE);
  }
}
