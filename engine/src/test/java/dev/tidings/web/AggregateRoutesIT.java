package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.aggregate.AggregateKey;
import dev.tidings.activity.aggregate.AggregateStore;
import dev.tidings.activity.aggregate.AggregationDefinitions;
import dev.tidings.config.Secret;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.aggregate.AggregateRoutes;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code GET /api/v1/aggregates} over the real PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregateRoutesIT {
  private static final String KEY = "tk_aggregates_test_key_0123456789";
  private final String user = "u-" + UUID.randomUUID();
  private Database database;
  private HttpServer server;
  private ApiClient api;

  @BeforeAll
  void start() {
    database = TestDatabases.real();
    var store = new AggregateStore(database.jdbi());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new AggregateRoutes(
            store, new AggregationDefinitions(database.jdbi(), Duration.ofSeconds(5)))));
    api = new ApiClient(server.port(), KEY);
    store.add(Map.of(
        AggregateKey.parse("s@user:s@" + user + ":s@user_brand:s@affinity:b@2026-11"), 4.0,
        AggregateKey.parse("s@user:s@" + user + ":s@user_brand:s@affinity:b@all"), 9.0,
        AggregateKey.parse("s@user:s@" + user + "0:s@user_brand:s@affinity:b@all"), 1.0));
  }

  @AfterAll
  void stop() {
    server.close();
    database.close();
  }

  private static String query(String key) {
    return "/api/v1/aggregates?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8);
  }

  @Test
  void aggregations_are_declared_as_data_listed_and_replaced_and_bad_ones_are_refused_saying_why() {
    var listed = api.get("/api/v1/aggregations");
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.json().path("items").findValuesAsString("name"))
        .contains("item_popularity", "user_brand", "co_view", "co_purchase");

    String body = """
        {"events": ["purchase"], "groupBy": ["brand"], "scopes": ["month"], "measure": "revenue",
         "algorithm": "trending"}""";
    var created = api.putJson("/api/v1/aggregations/test_brand_revenue", body);
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.json().path("enabled").asBoolean()).isTrue();
    assertThat(created.json().path("measure").asString()).isEqualTo("revenue");
    var replaced = api.putJson(
        "/api/v1/aggregations/test_brand_revenue",
        body.replace("\"month\"", "\"year\"").replace("}", ", \"enabled\": false}"));
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().path("enabled").asBoolean()).isFalse();
    assertThat(replaced.json().path("scopes").path(0).asString()).isEqualTo("year");

    var unknownEvent =
        api.putJson("/api/v1/aggregations/test_bad", body.replace("purchase", "teleport"));
    assertThat(unknownEvent.status()).isEqualTo(422);
    assertThat(unknownEvent.json().path("detail").asString()).contains("teleport");
    var badPair =
        api.putJson("/api/v1/aggregations/test_bad", body.replace("[\"brand\"]", "[\"co_item\"]"));
    assertThat(badPair.status()).isEqualTo(422);
    assertThat(badPair.json().path("detail").asString()).contains("co_item");
    assertThat(api.putJson("/api/v1/aggregations/Bad%20Name", body).status()).isEqualTo(400);
    assertThat(api.putJson("/api/v1/aggregations/test_bad", "[1]").status()).isEqualTo(400);
    assertThat(api.get("/api/v1/aggregations").json().path("items").findValuesAsString("name"))
        .contains("test_brand_revenue")
        .doesNotContain("test_bad");
  }

  @Test
  void a_whole_key_reads_its_one_aggregate() {
    var answer = api.get(query("s@user:s@" + user + ":s@user_brand:s@affinity:b@all"));
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("items")).hasSize(1);
    assertThat(answer.json().path("items").path(0).path("value").asDouble()).isEqualTo(9.0);
    assertThat(answer.json().path("items").path(0).path("rangeKey").asString()).isEqualTo("all");
  }

  @Test
  void a_key_without_a_period_reads_everything_under_its_segments_between_periods() {
    var all = api.get(query("s@user:s@" + user));
    assertThat(all.status()).isEqualTo(200);
    assertThat(all.json().path("items"))
        .as("not the user whose id merely starts alike")
        .hasSize(2);

    var november = api.get(query("s@user:s@" + user) + "&from=2026-11&to=2026-11");
    assertThat(november.json().path("items")).hasSize(1);
    assertThat(november.json().path("items").path(0).path("value").asDouble()).isEqualTo(4.0);
  }

  @Test
  void a_key_off_the_grammar_is_a_422_naming_its_field_and_a_missing_one_a_400() {
    var bad = api.get(query("user:u-1"));
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.detail()).contains("segment 1 does not start with a type tag");
    assertThat(bad.json().path("field").asString()).isEqualTo("key");
    var badPeriod = api.get(query("s@user") + "&from=yesterday");
    assertThat(badPeriod.status()).isEqualTo(422);
    assertThat(badPeriod.detail()).startsWith("from:");
    assertThat(badPeriod.json().path("field").asString()).isEqualTo("from");
    assertThat(api.get("/api/v1/aggregates").status()).isEqualTo(400);
  }
}
