package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CompiledCampaignsTest {
  private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");

  private final CampaignDefinition definition = Fixtures.definition();
  private final ConcurrentHashMap<Long, AtomicInteger> loads = new ConcurrentHashMap<>();
  private final CompiledCampaigns campaigns = new CompiledCampaigns(
      id -> {
        loads.computeIfAbsent(id, any -> new AtomicInteger()).incrementAndGet();
        return Optional.of(campaign(id));
      },
      InstantSource.fixed(NOW));

  @Test
  void a_campaign_in_use_stays_compiled_while_many_others_pass_through() {
    long busy = 0;
    campaigns.get(busy);

    for (long other = 1; other <= 12_000; other++) {
      campaigns.get(other);
      if (other % 100 == 0) campaigns.get(busy);
    }

    assertThat(loads.get(busy)).hasValue(1);
  }

  @Test
  void within_the_recheck_a_campaign_is_read_once() {
    var first = campaigns.get(5).orElseThrow();
    var second = campaigns.get(5).orElseThrow();

    assertThat(second).isSameAs(first);
    assertThat(loads.get(5L)).hasValue(1);
  }

  private Campaign campaign(long id) {
    return new Campaign(id, definition, CampaignState.DRAFT, 1, Optional.empty(), NOW, NOW);
  }
}
