package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.activity.ActivityHistory;
import dev.tidings.audience.Consent;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.history.SubscriberHistory;
import dev.tidings.opentime.ShownProducts;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.audience.AudienceRoutes;
import dev.tidings.web.audience.SubscriberHistoryRoutes;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Finding subscribers and reading one subscriber's emails and activity over HTTP, on the real
 * PostgreSQL: what each capability recorded comes back through its own service.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubscriberRoutesIT {
  private static final String KEY = "tk_subscriber_routes_key_0123456789";
  private static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private Database database;
  private HttpServer server;
  private ApiClient api;

  @BeforeAll
  void start() {
    database = TestDatabases.real();
    var clock = InstantSource.system();
    var jdbi = database.jdbi();
    var subscribers = new SubscriberService(jdbi, clock);
    subscribers.put(subscriber("ada-1", "Ada.Lovelace@example.test", "Ada Lovelace"));
    subscribers.put(subscriber("ada-2", "countess@example.test", "Augusta Ada King"));
    subscribers.put(subscriber("bob-1", "bob@ada.example", "Bob Builder"));
    subscribers.put(subscriber("cy-1", "cy@example.test", "100% Cy_"));
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        registry,
        List.of(),
        List.of(
            new AudienceRoutes(
                subscribers,
                new FollowService(jdbi, clock),
                new SuppressionService(jdbi, clock),
                new SuppressionChanges(registry),
                clock,
                16 * 1024,
                64 * 1024),
            new SubscriberHistoryRoutes(
                subscribers,
                new SubscriberHistory(
                    new DeliveryStats(jdbi),
                    new ShownProducts(jdbi),
                    id -> id == 7 ? Optional.of("Winter <sale>") : Optional.empty(),
                    new ActivityHistory(jdbi)))));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  void stop() {
    server.close();
    database.close();
  }

  private static Subscriber subscriber(String id, String email, String name) {
    return new Subscriber(
        id,
        email,
        Optional.of(name),
        Locale.forLanguageTag("en-GB"),
        ZoneId.of("Europe/London"),
        Optional.of(new Location(Optional.empty(), Optional.of("London"), Optional.of("GB"))),
        Consent.SUBSCRIBED);
  }

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.path("items").forEach(item -> ids.add(item.path("id").asString()));
    return ids;
  }

  @Test
  void q_finds_an_id_or_email_by_its_start_and_a_name_by_any_part_ignoring_case() {
    assertThat(ids(api.get("/api/v1/subscribers?q=ADA").json()))
        .as("ids starting with ada, and names holding it; not an email's middle alone")
        .containsExactly("ada-1", "ada-2");
    assertThat(ids(api.get("/api/v1/subscribers?q=ada.lovelace%40").json()))
        .containsExactly("ada-1");
    assertThat(ids(api.get("/api/v1/subscribers?q=BOB%40ADA").json())).containsExactly("bob-1");
    assertThat(ids(api.get("/api/v1/subscribers?q=builder").json())).containsExactly("bob-1");
    assertThat(ids(api.get("/api/v1/subscribers?q=example.test").json()))
        .as("an email's middle is not its start")
        .isEmpty();
  }

  @Test
  void like_wildcards_in_q_are_plain_characters() {
    assertThat(ids(api.get("/api/v1/subscribers?q=%25").json())).containsExactly("cy-1");
    assertThat(ids(api.get("/api/v1/subscribers?q=_").json())).containsExactly("cy-1");
    assertThat(ids(api.get("/api/v1/subscribers?q=a_a").json())).isEmpty();
  }

  @Test
  void a_search_is_paged_by_the_keyset_of_the_list() {
    var first = api.get("/api/v1/subscribers?q=ada&limit=1").json();
    assertThat(ids(first)).containsExactly("ada-1");
    assertThat(first.path("next").asString()).isEqualTo("ada-1");
    var second = api.get("/api/v1/subscribers?q=ada&limit=1&after=ada-1").json();
    assertThat(ids(second)).containsExactly("ada-2");
    var third = api.get("/api/v1/subscribers?q=ada&limit=1&after=ada-2").json();
    assertThat(ids(third)).isEmpty();
    assertThat(ids(api.get("/api/v1/subscribers").json()))
        .as("without q, every subscriber as before")
        .containsExactly("ada-1", "ada-2", "bob-1", "cy-1");
  }

  @Test
  void a_q_too_long_or_with_a_control_character_is_a_400_naming_q() {
    var long_ = api.get("/api/v1/subscribers?q=" + "a".repeat(255));
    assertThat(long_.status()).isEqualTo(400);
    assertThat(long_.detail()).startsWith("q must be at most 254 characters");
    var control = api.get("/api/v1/subscribers?q=ada%01");
    assertThat(control.status()).isEqualTo(400);
    assertThat(control.detail()).startsWith("q must not contain control characters");
    assertThat(api.get("/api/v1/subscribers?q=" + "a".repeat(254)).status()).isEqualTo(200);
  }

  @Test
  void a_subscribers_emails_come_newest_first_with_their_campaign_products_and_steps() {
    database.jdbi().useHandle(handle -> {
      message(handle, "m-old", 7, "ada-1", 50, T0, List.of(30, 50));
      message(
          handle, "m-new", 7, "ada-1", 70, T0.plusSeconds(3600), List.of(30, 50, 60, 61, 70, 71));
      message(handle, "m-bounced", 8, "ada-1", 40, T0.plusSeconds(1800), List.of(30, 40));
      message(handle, "m-other", 7, "ada-2", 50, T0.plusSeconds(7200), List.of(30, 50));
      handle.execute(
          "INSERT INTO message_slots (message_id, subscriber_id, campaign_id, product_ids, chosen_at)"
              + " VALUES ('m-new', 'ada-1', 7, ARRAY['p-2', 'p-1'], ?)",
          Timestamp.from(T0.plusSeconds(3700)));
    });
    var emails = api.get("/api/v1/subscribers/ada-1/emails").json().path("items");
    assertThat(emails.size()).isEqualTo(3);
    var newest = emails.path(0);
    assertThat(newest.path("messageId").asString()).isEqualTo("m-new");
    assertThat(newest.path("campaignId").asLong()).isEqualTo(7);
    assertThat(newest.path("campaignName").asString()).isEqualTo("Winter <sale>");
    assertThat(newest.path("sentAt").asString()).isEqualTo(T0.plusSeconds(3600).toString());
    assertThat(newest.path("status").asString()).isEqualTo("clicked");
    assertThat(newest.path("steps").toString())
        .isEqualTo(
            "[\"sent\",\"delivered\",\"opened\",\"humanOpened\",\"clicked\",\"humanClicked\"]");
    assertThat(newest.path("productIds").toString()).isEqualTo("[\"p-2\",\"p-1\"]");
    var bounced = emails.path(1);
    assertThat(bounced.path("messageId").asString()).isEqualTo("m-bounced");
    assertThat(bounced.has("campaignName")).as("campaign 8 is gone").isFalse();
    assertThat(bounced.path("steps").toString()).isEqualTo("[\"sent\",\"bounced\"]");
    assertThat(bounced.path("productIds").size()).isZero();
    assertThat(emails.path(2).path("messageId").asString()).isEqualTo("m-old");

    var one = api.get("/api/v1/subscribers/ada-1/emails?limit=1").json().path("items");
    assertThat(one.size()).isEqualTo(1);
    assertThat(one.path(0).path("messageId").asString()).isEqualTo("m-new");
  }

  private static void message(
      Handle handle,
      String id,
      long campaign,
      String subscriber,
      int status,
      Instant sentAt,
      List<Integer> steps) {
    handle.execute(
        "INSERT INTO message_status (message_id, campaign_id, subscriber_id, status, status_at, sent_at)"
            + " VALUES (?, ?, ?, ?, ?, ?)",
        id,
        campaign,
        subscriber,
        status,
        Timestamp.from(sentAt.plusSeconds(60)),
        Timestamp.from(sentAt));
    for (int step : steps)
      handle.execute(
          "INSERT INTO message_steps (message_id, step, campaign_id, first_at, source)"
              + " VALUES (?, ?, ?, ?, 'test')",
          id,
          step,
          campaign,
          Timestamp.from(sentAt));
  }

  @Test
  void a_subscribers_activity_comes_newest_first_with_every_type() {
    database.jdbi().useHandle(handle -> {
      event(handle, "ada-2", "view", "p-1", T0);
      event(handle, "ada-2", "open", "campaign-7", T0.plusSeconds(60));
      event(handle, "ada-2", "purchase", "p-1", T0.plusSeconds(120));
      event(handle, "bob-1", "view", "p-9", T0.plusSeconds(180));
    });
    var events = api.get("/api/v1/subscribers/ada-2/activity").json().path("items");
    assertThat(events.size()).isEqualTo(3);
    assertThat(events.path(0).path("type").asString()).isEqualTo("purchase");
    assertThat(events.path(0).path("itemId").asString()).isEqualTo("p-1");
    assertThat(events.path(0).path("occurredAt").asString())
        .isEqualTo(T0.plusSeconds(120).toString());
    assertThat(events.path(1).path("type").asString()).isEqualTo("open");
    assertThat(events.path(2).path("type").asString()).isEqualTo("view");
    assertThat(api.get("/api/v1/subscribers/ada-2/activity?limit=2")
            .json()
            .path("items")
            .size())
        .isEqualTo(2);
  }

  private static void event(Handle handle, String user, String type, String item, Instant at) {
    handle.execute(
        "INSERT INTO activity_events (user_id, type, item_id, occurred_at, received_at)"
            + " VALUES (?, ?, ?, ?, now())",
        user,
        type,
        item,
        Timestamp.from(at));
  }

  @Test
  void an_unknown_subscriber_is_a_404_and_a_bad_limit_a_400() {
    assertThat(api.get("/api/v1/subscribers/nobody/emails").status()).isEqualTo(404);
    assertThat(api.get("/api/v1/subscribers/nobody/activity").status()).isEqualTo(404);
    assertThat(api.get("/api/v1/subscribers/no%20such%20id/emails").status()).isEqualTo(404);
    for (String limit : List.of("0", "201", "ten", "-1")) {
      var answer = api.get("/api/v1/subscribers/ada-1/emails?limit=" + limit);
      assertThat(answer.status()).as(limit).isEqualTo(400);
      assertThat(answer.detail()).startsWith("limit must be");
    }
  }

  @Test
  void suppressions_added_and_lifted_over_the_api_are_counted_once_each() {
    String path = "/api/v1/suppressions/counted%40example.test";
    assertThat(api.putJson(path, "{\"reason\":\"manual\"}").status()).isEqualTo(200);
    assertThat(api.putJson(path, "{\"reason\":\"manual\"}").status())
        .as("suppressed already: nothing changed")
        .isEqualTo(200);
    assertThat(changed("api", "add")).isEqualTo(1);
    assertThat(api.delete(path).status()).isEqualTo(204);
    assertThat(api.delete(path).status()).isEqualTo(404);
    assertThat(changed("api", "lift")).isEqualTo(1);
    assertThat(changed("dashboard", "add")).isZero();
  }

  private double changed(String source, String action) {
    return registry
        .get(SuppressionChanges.METRIC)
        .tag("source", source)
        .tag("action", action)
        .counter()
        .count();
  }
}
