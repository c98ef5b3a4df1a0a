package dev.tidings.activity.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.EventType;
import dev.tidings.activity.StoredEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AggregationDefinitionTest {
  private static final AggregationDefinition BRAND_AFFINITY = new AggregationDefinition(
      "brand_affinity",
      Set.of(EventType.VIEW, EventType.PURCHASE),
      List.of(Dimension.USER, Dimension.BRAND),
      Set.of(Scope.MONTH, Scope.ALL),
      Measure.EVENTS,
      "affinity");
  private static final AggregationDefinition REVENUE_PER_ITEM = new AggregationDefinition(
      "item_revenue",
      Set.of(EventType.PURCHASE),
      List.of(Dimension.ITEM),
      Set.of(Scope.DAY),
      Measure.REVENUE,
      "trending");
  private static final ItemFacts ACME_SHOES =
      new ItemFacts(Optional.of("acme"), Optional.of("shoes"));

  private static ActivityEvent event(EventType type, String user, String item, int quantity) {
    return new ActivityEvent(
        Optional.empty(),
        user,
        type,
        item,
        Instant.parse("2026-11-23T22:50:00Z"),
        quantity,
        Optional.of(new BigDecimal("2.50")));
  }

  @Test
  void an_event_writes_one_key_per_scope_naming_its_group_aggregation_algorithm_and_period() {
    var keys = BRAND_AFFINITY.keysFor(event(EventType.VIEW, "u-1", "p-9", 1), ACME_SHOES);
    assertThat(keys)
        .extracting(AggregateKey::format)
        .containsExactly(
            "s@user:s@u-1:s@brand:s@acme:s@brand_affinity:s@affinity:b@2026-11",
            "s@user:s@u-1:s@brand:s@acme:s@brand_affinity:s@affinity:b@all");
  }

  @Test
  void events_it_does_not_count_and_items_without_the_dimension_write_nothing() {
    assertThat(BRAND_AFFINITY.keysFor(event(EventType.CLICK, "u-1", "p-9", 1), ACME_SHOES))
        .isEmpty();
    assertThat(BRAND_AFFINITY.keysFor(event(EventType.VIEW, "u-1", "p-9", 1), ItemFacts.UNKNOWN))
        .isEmpty();
  }

  @Test
  void a_batch_is_summed_per_key_before_it_is_written() {
    var events = List.of(
        new StoredEvent(1, event(EventType.PURCHASE, "u-1", "p-9", 2)),
        new StoredEvent(2, event(EventType.PURCHASE, "u-2", "p-9", 1)),
        new StoredEvent(3, event(EventType.VIEW, "u-1", "p-9", 1)));
    Map<AggregateKey, Double> deltas = Deltas.of(
        events,
        List.of(BRAND_AFFINITY, REVENUE_PER_ITEM),
        item -> ACME_SHOES,
        new SessionHistory(Map.of()));

    assertThat(
            deltas.get(AggregateKey.parse("s@item:s@p-9:s@item_revenue:s@trending:b@2026-11-23")))
        .isEqualTo(7.5);
    assertThat(deltas.get(
            AggregateKey.parse("s@user:s@u-1:s@brand:s@acme:s@brand_affinity:s@affinity:b@all")))
        .isEqualTo(2.0);
    assertThat(deltas).hasSize(1 + 2 * 2);
  }

  @Test
  void a_round_writes_the_keys_of_keys_for_with_each_hash_key_built_once() {
    // values with the characters a key escapes, items without a brand, pairs both ways
    var partners = (SessionPartners) types -> List.of("p:1", "p\\2", "p-3");
    var events = List.of(
        event(EventType.VIEW, "u:1", "p-9", 1),
        event(EventType.PURCHASE, "u-2", "p\\9", 3),
        event(EventType.ADD_TO_CART, "u-3", "p-9", 1),
        event(EventType.CLICK, "u-4", "p-7", 1));
    var definitions = new ArrayList<>(StandardAggregations.all());
    definitions.add(BRAND_AFFINITY);
    definitions.add(REVENUE_PER_ITEM);
    for (AggregationDefinition definition : definitions)
      for (ActivityEvent event : events)
        for (ItemFacts item : List.of(ACME_SHOES, ItemFacts.UNKNOWN)) {
          var built = new ArrayList<String>();
          definition.eachKey(event, item, partners, (hash, periods) -> {
            for (KeyPart.Bucket period : periods) built.add(hash + ":" + period.format());
          });
          assertThat(built)
              .as(definition.name() + " of " + event)
              .containsExactlyElementsOf(definition.keysFor(event, item, partners).stream()
                  .map(AggregateKey::format)
                  .toList());
        }
  }

  @Test
  void a_definition_off_the_rules_is_refused_with_every_problem() {
    assertThatThrownBy(() -> new AggregationDefinition(
            "Bad Name",
            Set.of(),
            List.of(Dimension.USER, Dimension.USER),
            Set.of(),
            Measure.EVENTS,
            "affinity"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("name must be")
        .hasMessageContaining("events must name")
        .hasMessageContaining("names a dimension twice")
        .hasMessageContaining("scopes must name");
  }
}
