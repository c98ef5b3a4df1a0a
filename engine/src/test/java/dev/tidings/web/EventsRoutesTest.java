package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.events.CloudEvent;
import dev.tidings.events.CloudEventType;
import dev.tidings.events.DomainEvent;
import dev.tidings.events.EventLog;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.EventRelay;
import dev.tidings.events.EventRoutes;
import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.events.campaign.RunCompleted;
import dev.tidings.events.catalog.PriceDropped;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Delivered;
import dev.tidings.events.delivery.Opened;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.events.EventsRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The events API through a real server on an embedded PostgreSQL: events written to the outbox and
 * relayed into the log are read back in the order of their positions, page by page from any cursor,
 * filtered by type, in the CloudEvents JSON format whose data is the emitter's record; every bad
 * parameter is a 400 that names it.
 */
@StartsServers
class EventsRoutesTest {
  private static final String KEY = "events-test-key-0123456789";
  private static final Instant AT = Instant.parse("2026-03-01T10:15:30.123Z");
  private static Database database;
  private static PostgresWorkQueue queue;
  private static HttpServer server;
  private static ApiClient api;
  /** Every event appended, in the order the relay gives them positions. */
  private static final List<DomainEvent> appended = new ArrayList<>();

  @BeforeAll
  static void start() {
    database = TestDatabases.embedded();
    queue = new PostgresWorkQueue(database, new SimpleMeterRegistry());
    // three transactions of the emitters: one event, a batch of several, and another batch
    appended.add(new Subscribed("sub-1", AT));
    List<DomainEvent> receipts = List.of(
        new Delivered("m-1", 7, "sub-1", AT.plusSeconds(1)),
        new Opened("m-1", 7, "sub-1", AT.plusSeconds(2)),
        new Clicked("m-1", 7, "sub-1", AT.plusSeconds(3)),
        new Opened("m-2", 7, "sub-2", AT.plusSeconds(4)));
    appended.addAll(receipts);
    List<DomainEvent> others = List.of(
        new PriceDropped(
            "p-1", new BigDecimal("19.90"), new BigDecimal("14.50"), "EUR", AT.plusSeconds(5)),
        new ActivityAccepted(null, "sub-2", "view", "p-1", 1, AT.plusSeconds(6)),
        new RunCompleted(7, 1, 2, 0, AT.plusSeconds(7)));
    appended.addAll(others);
    database
        .jdbi()
        .useTransaction(handle -> EventOutbox.ON.append(handle, List.of(appended.getFirst())));
    database.jdbi().useTransaction(handle -> EventOutbox.ON.append(handle, receipts));
    database.jdbi().useTransaction(handle -> EventOutbox.ON.append(handle, others));
    long relayed = new EventRelay(
            database.jdbi(),
            queue,
            new EventRoutes(List.of()),
            InstantSource.system(),
            new SimpleMeterRegistry())
        .drain();
    assertThat(relayed).isEqualTo(appended.size());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new EventsRoutes(new EventLog(database.jdbi()))));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
    queue.close();
    database.close();
  }

  @Test
  void a_client_that_loops_on_next_reads_every_event_once_in_order() {
    List<JsonNode> read = new ArrayList<>();
    String after = "0";
    int pages = 0;
    while (true) {
      var answer = api.get(EventsRoutes.PATH + "?after=" + after + "&limit=3");
      assertThat(answer.status()).isEqualTo(200);
      JsonNode events = answer.json().path("events");
      String next = answer.json().path("next").asString();
      if (events.isEmpty()) {
        assertThat(next).as("no events: the same cursor again").isEqualTo(after);
        break;
      }
      pages++;
      assertThat(events.size()).isLessThanOrEqualTo(3);
      events.forEach(read::add);
      assertThat(next).isEqualTo(events.get(events.size() - 1).path("position").asString());
      after = next;
    }
    assertThat(pages).isEqualTo(3);
    assertThat(read).hasSize(appended.size());
    List<Long> positions =
        read.stream().map(event -> event.path("position").asLong()).toList();
    assertThat(positions).isSorted().doesNotHaveDuplicates();
    assertThat(new HashSet<>(read.stream().map(e -> e.path("id").asString()).toList()))
        .hasSize(appended.size());
    for (int at = 0; at < read.size(); at++) {
      JsonNode json = read.get(at);
      DomainEvent expected = appended.get(at);
      assertThat(json.path("specversion").asString()).isEqualTo("1.0");
      assertThat(json.path("source").asString()).isEqualTo("/tidings");
      assertThat(json.path("type").asString())
          .isEqualTo(CloudEventType.of(expected).typeName());
      assertThat(json.path("subject").asString()).isEqualTo(expected.subject());
      assertThat(Instant.parse(json.path("time").asString())).isEqualTo(expected.time());
      assertThat(CloudEvent.of(json).event())
          .as("the data is the emitter's record")
          .isEqualTo(expected);
    }
  }

  @Test
  void a_cursor_past_some_events_answers_only_those_after_it() {
    JsonNode all = api.get(EventsRoutes.PATH + "?limit=1000").json().path("events");
    long third = all.get(2).path("position").asLong();
    var answer = api.get(EventsRoutes.PATH + "?after=" + third).json();
    assertThat(answer.path("events")).hasSize(appended.size() - 3);
    assertThat(answer.path("events").get(0).path("position").asLong())
        .isEqualTo(all.get(3).path("position").asLong());
    long last = all.get(all.size() - 1).path("position").asLong();
    var beyond = api.get(EventsRoutes.PATH + "?after=" + (last + 1000)).json();
    assertThat(beyond.path("events")).isEmpty();
    assertThat(beyond.path("next").asString()).isEqualTo(Long.toString(last + 1000));
  }

  @Test
  void without_parameters_the_first_hundred_are_answered() {
    var answer = api.get(EventsRoutes.PATH);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("events")).hasSize(appended.size());
  }

  @Test
  void repeated_types_answer_only_events_of_those_types() {
    var answer = api.get(EventsRoutes.PATH + "?type=dev.tidings.delivery.opened"
        + "&type=dev.tidings.catalog.price_dropped&limit=2");
    assertThat(answer.status()).isEqualTo(200);
    JsonNode events = answer.json().path("events");
    assertThat(events).hasSize(2);
    assertThat(events.get(0).path("type").asString()).isEqualTo("dev.tidings.delivery.opened");
    assertThat(events.get(0).path("data").path("messageId").asString()).isEqualTo("m-1");
    assertThat(events.get(1).path("data").path("messageId").asString()).isEqualTo("m-2");
    String next = answer.json().path("next").asString();
    JsonNode rest = api.get(EventsRoutes.PATH + "?type=dev.tidings.delivery.opened"
            + "&type=dev.tidings.catalog.price_dropped&after=" + next)
        .json()
        .path("events");
    assertThat(rest).hasSize(1);
    assertThat(rest.get(0).path("type").asString()).isEqualTo("dev.tidings.catalog.price_dropped");
    assertThat(rest.get(0).path("data").path("to").decimalValue()).isEqualByComparingTo("14.50");
  }

  @Test
  void every_bad_parameter_is_a_400_that_names_it() {
    for (String after : List.of("-1", "abc", "1.5", "99999999999999999999", "+3"))
      assertRefused("?after=" + after, "after");
    for (String limit : List.of("0", "1001", "ten", "-5"))
      assertRefused("?limit=" + limit, "limit");
    var unknown = api.get(EventsRoutes.PATH + "?type=dev.tidings.delivery.opened"
        + "&type=dev.tidings.delivery.teleported");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.detail()).contains("type").contains("'dev.tidings.delivery.teleported'");
    assertRefused("?type=", "type");
  }

  private static void assertRefused(String query, String parameter) {
    var answer = api.get(EventsRoutes.PATH + query);
    assertThat(answer.status()).as(query).isEqualTo(400);
    assertThat(answer.json().path("error").asString()).isEqualTo("bad_request");
    assertThat(answer.detail()).as(query).startsWith(parameter + " ");
  }

  @Test
  void the_types_route_lists_every_event_type() {
    var answer = api.get(EventsRoutes.PATH + "/types");
    assertThat(answer.status()).isEqualTo(200);
    List<String> types = new ArrayList<>();
    answer.json().path("types").forEach(type -> types.add(type.asString()));
    assertThat(types)
        .containsExactlyElementsOf(
            Arrays.stream(CloudEventType.values()).map(CloudEventType::typeName).toList());
  }

  @Test
  void the_events_need_the_api_key() {
    var client = new ApiClient(server.port(), "not-the-key-0123456789");
    assertThat(client.get(EventsRoutes.PATH).status()).isEqualTo(401);
    assertThat(client.get(EventsRoutes.PATH + "/types").status()).isEqualTo(401);
  }
}
