package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class TemplateProductsTest {
  private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");

  private Instant now = NOW;
  private final List<Map.Entry<Long, Set<String>>> told = new ArrayList<>();
  private final AtomicBoolean failing = new AtomicBoolean();
  private final TemplateProducts products = new TemplateProducts(
      urls -> urls.contains("https://shop.example/p/boots") ? Set.of("boots") : Set.of(),
      (campaign, ids) -> {
        if (failing.get()) throw new IllegalStateException("database down");
        told.add(Map.entry(campaign, ids));
      },
      new InstantSource() {
        @Override
        public Instant instant() {
          return now;
        }
      });

  private static Campaign campaign(long id, int version, String html) {
    ObjectNode json = Fixtures.json();
    json.put("html", html);
    return new Campaign(
        id, CampaignJson.fromJson(json), CampaignState.DRAFT, version, Optional.empty(), NOW, NOW);
  }

  @Test
  void the_products_a_template_links_are_told_with_its_campaign() {
    products.tell(campaign(7, 1, "<a href=\"https://shop.example/p/boots\">Boots</a>"));

    assertThat(told).containsExactly(Map.entry(7L, Set.of("boots")));
  }

  @Test
  void a_campaign_version_is_told_once_until_it_changes_or_the_answer_may_have() {
    var first = campaign(7, 1, "<a href=\"https://shop.example/p/boots\">Boots</a>");
    products.tell(first);
    products.tell(first);
    assertThat(told).hasSize(1);

    products.tell(campaign(7, 2, "<p>no products</p>"));
    assertThat(told).last().isEqualTo(Map.entry(7L, Set.of()));

    now = now.plus(TemplateProducts.RETELL).plus(Duration.ofSeconds(1));
    products.tell(campaign(7, 2, "<p>no products</p>"));
    assertThat(told).hasSize(3);
  }

  @Test
  void a_tell_that_failed_is_tried_again_with_the_next_emails() {
    var campaign = campaign(8, 1, "<a href=\"https://shop.example/p/boots\">Boots</a>");
    failing.set(true);
    assertThatThrownBy(() -> products.tell(campaign)).hasMessage("database down");

    failing.set(false);
    products.tell(campaign);

    assertThat(told).containsExactly(Map.entry(8L, Set.of("boots")));
  }
}
