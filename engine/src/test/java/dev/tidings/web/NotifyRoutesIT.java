package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.notify.Notifications;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.notify.NotifyRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Content and notifications over HTTP on the real PostgreSQL: good requests work, bad ones say why. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NotifyRoutesIT {
  private static final String KEY = "tk_notify_test_key_0123456789";
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private Database database;
  private HttpServer server;
  private ApiClient api;

  @BeforeAll
  void start() {
    database = TestDatabases.real();
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new NotifyRoutes(
            new Notifications(
                database.jdbi(),
                InstantSource.system(),
                Notifications.ProductShelf.ALL_AVAILABLE,
                new SimpleMeterRegistry()),
            16 * 1024)));
    api = new ApiClient(server.port(), KEY);
    database.jdbi().useHandle(handle -> {
      handle.execute(
          "INSERT INTO subscribers (id, email, created_at, updated_at) VALUES (?, ?, now(), now())",
          "fan-" + run,
          "fan-" + run + "@example.test");
      handle.execute(
          "INSERT INTO follows (subscriber_id, target_type, target_id, followed_at) VALUES (?, 'brand', ?, now())",
          "fan-" + run,
          "acme-" + run);
    });
  }

  @AfterAll
  void stop() {
    server.close();
    database.close();
  }

  @Test
  void content_is_created_published_told_unpublished_and_deleted() {
    String path = "/api/v1/content/boots-" + run;
    String body = """
        {"type": "product", "title": "Winter boots", "url": "https://shop.test/boots",
         "owners": [{"type": "brand", "id": "acme-%s"}]}""".formatted(run);
    var created = api.putJson(path, body);
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.json().path("published").asBoolean()).isFalse();
    assertThat(api.putJson(path, body.replace("Winter", "Snow")).status()).isEqualTo(200);
    assertThat(api.get(path).json().path("title").asString()).isEqualTo("Snow boots");

    var published = api.postJson(path + "/publish", "");
    assertThat(published.status()).isEqualTo(200);
    assertThat(published.json().path("followersNotified").asLong()).isEqualTo(1);
    var digest = api.get("/api/v1/users/fan-" + run + "/notifications?since=7d").json();
    assertThat(digest.path("count").asInt()).isEqualTo(1);
    assertThat(digest.path("days").path(0).path("items").path(0).path("kind").asString())
        .isEqualTo("followed");
    assertThat(digest
            .path("days")
            .path(0)
            .path("items")
            .path(0)
            .path("content")
            .path("title")
            .asString())
        .isEqualTo("Snow boots");

    assertThat(api.postJson(path + "/unpublish", "").status()).isEqualTo(200);
    assertThat(api.get("/api/v1/users/fan-" + run + "/notifications")
            .json()
            .path("count")
            .asInt())
        .isZero();
    assertThat(api.delete(path).status()).isEqualTo(204);
    assertThat(api.get(path).status()).isEqualTo(404);
    assertThat(api.postJson(path + "/publish", "").status()).isEqualTo(404);
  }

  @Test
  void an_import_stores_all_or_nothing_and_publishes_what_it_marks_published() {
    String body = """
        [{"id": "scarf-%1$s", "type": "product", "title": "Scarf", "owners": [{"type": "brand", "id": "acme-%1$s"}],
          "published": true},
         {"id": "hat-%1$s", "type": "product", "title": "Hat", "owners": [{"type": "brand", "id": "acme-%1$s"}]}]""".formatted(run);
    var bad = api.postJson(
        "/api/v1/content/import",
        body.replace("\"title\": \"Hat\"", "\"title\": \"Hat\", \"type\": \"hat\""));
    assertThat(bad.status()).isIn(400, 422);
    assertThat(api.get("/api/v1/content/scarf-" + run).status())
        .as("nothing stored when one piece is bad")
        .isEqualTo(404);
    var twice = api.postJson("/api/v1/content/import", body.replace("hat-", "scarf-"));
    assertThat(twice.status()).isEqualTo(422);
    assertThat(twice.detail()).contains("content 2").contains("comes twice");

    var imported = api.postJson("/api/v1/content/import", body);
    assertThat(imported.status()).isEqualTo(200);
    assertThat(imported.json().path("created").asInt()).isEqualTo(2);
    assertThat(imported.json().path("published").asInt()).isEqualTo(1);
    assertThat(imported.json().path("followers").asLong()).isEqualTo(1);
    assertThat(api.get("/api/v1/content/hat-" + run).json().path("published").asBoolean())
        .isFalse();
    var digest = api.get("/api/v1/users/fan-" + run + "/notifications").json();
    assertThat(digest.findValuesAsString("title")).contains("Scarf").doesNotContain("Hat");
  }

  @Test
  void an_import_reads_published_null_as_not_given_and_names_a_published_of_another_type() {
    String body = """
        [{"id": "cap-%1$s", "type": "product", "title": "Cap", "published": null}]""".formatted(run);
    var imported = api.postJson("/api/v1/content/import", body);
    assertThat(imported.status()).as(imported.body()).isEqualTo(200);
    assertThat(imported.json().path("published").asInt()).isZero();
    assertThat(api.get("/api/v1/content/cap-" + run).json().path("published").asBoolean())
        .isFalse();

    var wrong = api.postJson(
        "/api/v1/content/import",
        body.replace("cap-", "mitt-").replace("\"published\": null", "\"published\": \"yes\""));
    assertThat(wrong.status()).isEqualTo(422);
    assertThat(wrong.detail()).contains("content 1").contains("published must be true or false");
    assertThat(api.get("/api/v1/content/mitt-" + run).status()).isEqualTo(404);
  }

  @Test
  void bad_content_and_bad_windows_get_a_4xx_that_says_what_is_wrong_and_store_nothing() {
    var badType = api.putJson(
        "/api/v1/content/bad-" + run,
        "{\"type\": \"poster\", \"title\": \"x\", \"owners\": [{\"type\": \"band\", \"id\": \"y\"}],"
            + " \"endsAt\": \"soon\"}");
    assertThat(badType.status()).isEqualTo(422);
    assertThat(badType.detail())
        .contains("type must be product")
        .contains("owner 1")
        .contains("endsAt");
    var otherId = api.putJson(
        "/api/v1/content/bad-" + run,
        "{\"id\": \"other\", \"type\": \"article\", \"title\": \"x\"}");
    assertThat(otherId.status()).isEqualTo(422);
    assertThat(otherId.detail()).contains("not the id in the URL");
    assertThat(api.get("/api/v1/content/bad-" + run).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/content/bad%20id").status()).isEqualTo(400);
    assertThat(api.get("/api/v1/users/u-1/notifications?since=99d").status()).isEqualTo(400);
    assertThat(api.get("/api/v1/users/u-1/notifications?since=week").detail()).contains("7d");
  }
}
