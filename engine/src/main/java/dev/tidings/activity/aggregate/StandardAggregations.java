package dev.tidings.activity.aggregate;

import java.util.List;
import tools.jackson.databind.ObjectMapper;

/**
 * The aggregations a new installation counts, as its migrations store them in {@code
 * aggregation_definitions} (a test holds the two equal): what the recommender's algorithms read. An
 * installation may change or add its own through the API; these are where it starts, and what an
 * offline replay of a history counts.
 */
public final class StandardAggregations {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One aggregation as its migration stores it: a name and its declaration's JSON. */
  private record Declared(String name, String json) {}

  private static final List<Declared> DECLARED = List.of(
      new Declared("item_popularity", """
          {"events": ["view", "click", "add_to_cart", "purchase", "email_click"],
           "groupBy": ["item"], "scopes": ["day", "month", "all"], "measure": "people",
           "algorithm": "popularity"}"""),
      new Declared("item_buyers", """
          {"events": ["purchase"], "groupBy": ["item"], "scopes": ["day", "month", "all"],
           "measure": "people", "algorithm": "popularity"}"""),
      new Declared("user_brand", """
          {"events": ["view", "add_to_cart", "purchase"], "groupBy": ["user", "brand"],
           "scopes": ["month", "all"], "measure": "events", "algorithm": "affinity"}"""),
      new Declared("user_category", """
          {"events": ["view", "add_to_cart", "purchase"], "groupBy": ["user", "category"],
           "scopes": ["month", "all"], "measure": "events", "algorithm": "affinity"}"""),
      new Declared("user_item_purchases", """
          {"events": ["purchase"], "groupBy": ["user", "item"], "scopes": ["month", "all"],
           "measure": "events", "algorithm": "buy_again"}"""),
      new Declared("user_item_views", """
          {"events": ["view", "click", "add_to_cart"], "groupBy": ["user", "item"],
           "scopes": ["day"], "measure": "events", "algorithm": "recently_viewed"}"""),
      new Declared("co_view", """
          {"events": ["view", "click", "add_to_cart"], "groupBy": ["item", "co_item"],
           "scopes": ["all"], "measure": "people", "algorithm": "cooccurrence"}"""),
      new Declared("co_purchase", """
          {"events": ["purchase"], "groupBy": ["item", "co_item"], "scopes": ["all"],
           "measure": "people", "algorithm": "cooccurrence"}"""));

  private StandardAggregations() {}

  /** Every standard aggregation, parsed as a stored one is. */
  public static List<AggregationDefinition> all() {
    return DECLARED.stream()
        .map(declared ->
            AggregationDefinitions.parse(declared.name(), JSON.readTree(declared.json())))
        .toList();
  }
}
