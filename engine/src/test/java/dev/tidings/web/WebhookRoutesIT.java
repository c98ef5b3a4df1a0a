package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidings.config.Secret;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.webhooks.WebhookRoutes;
import dev.tidings.webhooks.WebhookDeadLetters;
import dev.tidings.webhooks.WebhookEndpoints;
import dev.tidings.webhooks.WebhookUrls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * The webhook endpoints' API on the real PostgreSQL: the secret is answered once (on creation and
 * rotation) and never by a list, a read or a log line; every refusal names its field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhookRoutesIT {
  private static final String KEY = "tk_webhooks_test_key_0123456789";
  private Database database;
  private PostgresWorkQueue queue;
  private HttpServer server;
  private HttpServer strict;
  private ApiClient api;
  private ApiClient strictApi;

  @BeforeAll
  void start() {
    database = TestDatabases.real();
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    var deadLetters = new WebhookDeadLetters(database.jdbi(), queue, InstantSource.system());
    // one node lets test targets through (http allowed), the other does not (https only)
    server = start(
        new WebhookEndpoints(
            database.jdbi(), new WebhookUrls(FetchAllowance.everything()), InstantSource.system()),
        deadLetters);
    strict = start(
        new WebhookEndpoints(
            database.jdbi(), new WebhookUrls(FetchAllowance.none()), InstantSource.system()),
        deadLetters);
    api = new ApiClient(server.port(), KEY);
    strictApi = new ApiClient(strict.port(), KEY);
  }

  private static HttpServer start(WebhookEndpoints endpoints, WebhookDeadLetters deadLetters) {
    return HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new WebhookRoutes(endpoints, deadLetters, 64 * 1024)));
  }

  @AfterAll
  void stop() {
    server.close();
    strict.close();
    queue.close();
    database.close();
  }

  @Test
  void an_endpoint_is_created_read_changed_rotated_and_deleted_and_its_secret_shown_only_twice() {
    var logged = new ListAppender<ILoggingEvent>();
    logged.start();
    var root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    var level = root.getLevel();
    var access = (Logger) LoggerFactory.getLogger("tidings.access");
    var accessLevel = access.getLevel();
    // everything logged meanwhile, the access log and debug lines included, is looked through
    root.setLevel(Level.ALL);
    access.setLevel(Level.ALL);
    root.addAppender(logged);
    String secret;
    String rotatedSecret;
    try {
      var created = strictApi.postJson("/api/v1/webhooks", """
          {"url": "https://crm.shop.test/tidings", "description": "CRM",
           "eventTypes": ["dev.tidings.delivery.opened", "dev.tidings.audience.subscribed"]}""");
      assertThat(created.status()).isEqualTo(201);
      String id = created.json().path("id").asString();
      assertThat(id).matches("ep_[0-9a-f]{16}");
      secret = created.json().path("secret").asString();
      assertThat(secret).startsWith("whsec_");
      assertThat(java.util.Base64.getDecoder().decode(secret.substring(6))).hasSize(32);
      assertThat(created.json().path("enabled").asBoolean()).isTrue();
      assertThat(created.json().path("eventTypes").toString())
          .isEqualTo("[\"dev.tidings.audience.subscribed\",\"dev.tidings.delivery.opened\"]");

      var read = strictApi.get("/api/v1/webhooks/" + id);
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.json().has("secret")).isFalse();
      assertThat(read.body()).doesNotContain(secret.substring(6));
      var listed = strictApi.get("/api/v1/webhooks");
      assertThat(listed.status()).isEqualTo(200);
      assertThat(listed.body())
          .contains(id)
          .doesNotContain(secret.substring(6))
          .doesNotContain("whsec_");

      var changed = strictApi.patchJson("/api/v1/webhooks/" + id, """
          {"eventTypes": [], "enabled": false}""");
      assertThat(changed.status()).isEqualTo(200);
      assertThat(changed.json().path("eventTypes").isEmpty()).isTrue();
      assertThat(changed.json().path("enabled").asBoolean()).isFalse();
      assertThat(changed.json().path("description").asString()).isEqualTo("CRM");
      assertThat(changed.body()).doesNotContain("whsec_");

      var rotated = strictApi.postJson("/api/v1/webhooks/" + id + "/rotate-secret", "");
      assertThat(rotated.status()).isEqualTo(200);
      rotatedSecret = rotated.json().path("secret").asString();
      assertThat(rotatedSecret).startsWith("whsec_").isNotEqualTo(secret);
      assertThat(Instant.parse(rotated.json().path("previousSecretValidUntil").asString()))
          .isAfter(Instant.now().plus(Duration.ofHours(23)));
      assertThat(strictApi.get("/api/v1/webhooks/" + id).body())
          .doesNotContain("whsec_")
          .contains("previousSecretValidUntil");

      assertThat(strictApi.delete("/api/v1/webhooks/" + id).status()).isEqualTo(204);
      assertThat(strictApi.get("/api/v1/webhooks/" + id).status()).isEqualTo(404);
      assertThat(strictApi.delete("/api/v1/webhooks/" + id).status()).isEqualTo(404);
      assertThat(strictApi
              .postJson("/api/v1/webhooks/" + id + "/rotate-secret", "")
              .status())
          .isEqualTo(404);
    } finally {
      root.detachAppender(logged);
      root.setLevel(level);
      access.setLevel(accessLevel);
    }
    assertThat(logged.list).isNotEmpty();
    for (var event : logged.list) {
      String line = event.getFormattedMessage() + " " + event.getMDCPropertyMap();
      assertThat(line)
          .doesNotContain(secret.substring(6))
          .doesNotContain(rotatedSecret.substring(6));
    }
  }

  @Test
  void refusals_name_their_field() {
    var http = strictApi.postJson("/api/v1/webhooks", "{\"url\": \"http://crm.shop.test/hook\"}");
    assertThat(http.status()).isEqualTo(422);
    assertThat(http.json().path("field").asString()).isEqualTo("url");
    assertThat(http.detail()).contains("https");
    // where the fetch allowance lets test targets through, http is taken
    assertThat(api.postJson("/api/v1/webhooks", "{\"url\": \"http://127.0.0.1:9/hook\"}")
            .status())
        .isEqualTo(201);

    var missing = strictApi.postJson("/api/v1/webhooks", "{\"description\": \"x\"}");
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.json().path("field").asString()).isEqualTo("url");

    for (String url :
        List.of("ftp://shop.test/x", "https:///nohost", "https://u:p@shop.test/", "not a url"))
      assertThat(strictApi
              .postJson("/api/v1/webhooks", "{\"url\": \"" + url + "\"}")
              .json()
              .path("field")
              .asString())
          .as(url)
          .isEqualTo("url");

    var types = strictApi.postJson("/api/v1/webhooks", """
        {"url": "https://shop.test/h", "eventTypes": ["dev.tidings.delivery.opened", "order.paid", 7]}""");
    assertThat(types.status()).isEqualTo(422);
    assertThat(types.json().path("problems").findValuesAsString("field"))
        .containsExactly("eventTypes[1]", "eventTypes[2]");
    assertThat(types.detail()).contains("'order.paid' is not an event type");

    var shapes = strictApi.postJson("/api/v1/webhooks", """
        {"url": "https://shop.test/h", "enabled": "yes", "colour": "red", "eventTypes": "all"}""");
    assertThat(shapes.status()).isEqualTo(422);
    assertThat(shapes.json().path("problems").findValuesAsString("field"))
        .containsExactlyInAnyOrder("enabled", "colour", "eventTypes");

    var longText = strictApi.postJson(
        "/api/v1/webhooks",
        "{\"url\": \"https://shop.test/h\", \"description\": \"" + "d".repeat(501) + "\"}");
    assertThat(longText.json().path("field").asString()).isEqualTo("description");

    var created = strictApi.postJson("/api/v1/webhooks", "{\"url\": \"https://shop.test/ok\"}");
    String id = created.json().path("id").asString();
    var badPatch =
        strictApi.patchJson("/api/v1/webhooks/" + id, "{\"url\": \"javascript:alert(1)\"}");
    assertThat(badPatch.status()).isEqualTo(422);
    assertThat(badPatch.json().path("field").asString()).isEqualTo("url");
    assertThat(strictApi.get("/api/v1/webhooks/" + id).json().path("url").asString())
        .isEqualTo("https://shop.test/ok");
    assertThat(strictApi.get("/api/v1/webhooks/nope").status()).isEqualTo(404);
    assertThat(strictApi.patchJson("/api/v1/webhooks/ep_0000000000000000", "{}").status())
        .isEqualTo(404);
  }
}
