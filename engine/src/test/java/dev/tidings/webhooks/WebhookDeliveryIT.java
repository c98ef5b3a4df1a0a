package dev.tidings.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.events.delivery.Opened;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.queue.Subscribing;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.ReceivedEvents;
import dev.tidings.testing.StandardWebhooksReceiver;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Outgoing webhooks on the real PostgreSQL, its work queue and real HTTP receivers: every delivery
 * verifies under the Standard Webhooks rules (across a secret's rotation too), a receiver that fails
 * half its requests and hangs on some still gets every event, and one that always fails ends in dead
 * letters that replay once it is fixed.
 */
class WebhookDeliveryIT {
  private static final Duration FAST = Duration.ofMillis(30);

  private Database database;
  private PostgresWorkQueue queue;
  private SimpleMeterRegistry registry;
  private WebhookEndpoints endpoints;
  private WebhookDeadLetters deadLetters;
  private GuardedFetcher fetcher;
  private WebhookFanOut fanOut;
  private final List<Subscription> running = new ArrayList<>();
  private final List<StandardWebhooksReceiver> receivers = new ArrayList<>();

  @BeforeEach
  void open() {
    database = TestDatabases.real();
    registry = new SimpleMeterRegistry();
    queue = new PostgresWorkQueue(database, registry);
    var clock = InstantSource.system();
    endpoints =
        new WebhookEndpoints(database.jdbi(), new WebhookUrls(FetchAllowance.everything()), clock);
    deadLetters = new WebhookDeadLetters(database.jdbi(), queue, clock);
    fetcher = new GuardedFetcher(
        FetchAllowance.everything(),
        new GuardedFetcher.Limits(Duration.ofMillis(500), Duration.ofMillis(400), 64 * 1024, 0),
        registry);
    fanOut = new WebhookFanOut(endpoints, queue);
  }

  @AfterEach
  void close() {
    running.forEach(Subscription::close);
    receivers.forEach(StandardWebhooksReceiver::close);
    fetcher.close();
    queue.close();
    database.close();
  }

  private void startSenders(RetrySchedule schedule) {
    var metrics = new WebhookMetrics(registry);
    metrics.deadLetters(deadLetters::count);
    var sender = new WebhookSender(
        endpoints,
        deadLetters,
        queue,
        fetcher,
        new WebhookSender.Options(schedule, 4),
        InstantSource.system(),
        metrics);
    sender.consumers().register(new Subscribing(queue, running));
  }

  private StandardWebhooksReceiver receiver(List<String> secrets) throws Exception {
    var receiver = new StandardWebhooksReceiver(secrets);
    receivers.add(receiver);
    return receiver;
  }

  private static List<ReceivedEvent> subscriptions(int count) {
    var events = new ArrayList<ReceivedEvent>();
    for (int i = 0; i < count; i++)
      events.addAll(ReceivedEvents.of(new Subscribed("s" + i, Instant.now())));
    return events;
  }

  private static Set<String> ids(List<ReceivedEvent> events) {
    return Set.copyOf(events.stream().map(ReceivedEvent::id).toList());
  }

  private static EndpointFields at(String url) {
    return new EndpointFields(
        Optional.of(url), Optional.empty(), Optional.empty(), Optional.empty());
  }

  private double counted(String outcome) {
    return registry
        .get("tidings_webhook_deliveries")
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void every_delivery_verifies_by_the_specification_before_during_and_after_a_rotation()
      throws Exception {
    startSenders(new RetrySchedule(List.of(FAST, FAST, FAST), 0));
    var receiver = receiver(List.of());
    var created = endpoints.create(at(receiver.url()));
    String first = created.secret().value();
    receiver.secrets(List.of(first));

    var before = subscriptions(5);
    fanOut.apply(before);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> receiver.verified.keySet().containsAll(ids(before)));
    assertThat(receiver.unverified()).isZero();
    var sent = receiver.headers.getFirst();
    assertThat(sent.get("content-type")).startsWith("application/cloudevents+json");
    assertThat(sent.get("webhook-signature")).startsWith("v1,").doesNotContain(" ");
    String oneId = before.getFirst().id();
    assertThat(receiver.verified.get(oneId))
        .contains("\"id\":\"" + oneId + "\"")
        .contains("\"specversion\":\"1.0\"")
        .contains("\"type\":\"dev.tidings.audience.subscribed\"");

    var rotated = endpoints.rotate(created.endpoint().id()).orElseThrow();
    String second = rotated.secret().value();
    assertThat(second).isNotEqualTo(first).startsWith("whsec_");
    assertThat(rotated.previousUntil()).isAfter(Instant.now().plus(Duration.ofHours(23)));

    // during the overlap each delivery carries both signatures: a receiver that still knows only
    // the
    // old secret verifies it, and so does one that already knows only the new one
    var oldOnly = subscriptions(3);
    fanOut.apply(oldOnly);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> receiver.verified.keySet().containsAll(ids(oldOnly)));
    receiver.secrets(List.of(second));
    var newOnly = subscriptions(3);
    fanOut.apply(newOnly);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> receiver.verified.keySet().containsAll(ids(newOnly)));
    assertThat(receiver.unverified()).isZero();
    assertThat(receiver.headers.getLast().get("webhook-signature").split(" ")).hasSize(2);

    // and a receiver with a secret of its own verifies nothing: the check is not vacuous
    receiver.secrets(List.of(SigningSecret.generate().value()));
    var forged = subscriptions(1);
    fanOut.apply(forged);
    await().atMost(Duration.ofSeconds(20)).until(() -> receiver.unverified() > 0);
    assertThat(receiver.verified).doesNotContainKeys(ids(forged).toArray(String[]::new));
  }

  @Test
  void a_receiver_failing_half_its_requests_and_hanging_on_some_still_gets_every_event()
      throws Exception {
    startSenders(new RetrySchedule(Collections.nCopies(12, FAST), 0.5));
    var receiver = receiver(List.of());
    var created = endpoints.create(at(receiver.url()));
    receiver.secrets(List.of(created.secret().value()));
    // every other request answers 500, and one in seven hangs past the sender's 400 ms deadline
    receiver.plan(n -> n % 2 == 0
        ? StandardWebhooksReceiver.Behaviour.FAIL
        : n % 7 == 0
            ? StandardWebhooksReceiver.Behaviour.HANG
            : StandardWebhooksReceiver.Behaviour.ANSWER);
    var events = subscriptions(30);
    events.addAll(ReceivedEvents.of(new Opened("m1", 7, "s1", Instant.now())));
    fanOut.apply(events);

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> receiver.verified.keySet().containsAll(ids(events)));
    assertThat(receiver.unverified()).isZero();
    assertThat(receiver.requests()).isGreaterThan(events.size());
    assertThat(counted("failed")).isPositive();
    assertThat(counted("dead")).isZero();
    assertThat(deadLetters.count()).isZero();
    assertThat(registry
            .get("tidings_webhook_endpoint_failures")
            .tag("endpoint", created.endpoint().id())
            .counter()
            .count())
        .isPositive();
    assertThat(endpoints.get(created.endpoint().id()).orElseThrow().lastFailure())
        .isIn("status 500", "failed: no complete answer within PT0.4S");
  }

  @Test
  void an_endpoint_that_always_fails_ends_in_dead_letters_that_replay_once_it_is_fixed()
      throws Exception {
    startSenders(new RetrySchedule(List.of(FAST, FAST, FAST), 0));
    var receiver = receiver(List.of());
    var created = endpoints.create(at(receiver.url()));
    String secret = created.secret().value();
    receiver.secrets(List.of(secret));
    receiver.plan(n -> StandardWebhooksReceiver.Behaviour.FAIL);
    var events = subscriptions(4);
    fanOut.apply(events);

    await().atMost(Duration.ofSeconds(30)).until(() -> deadLetters.count() == 4);
    assertThat(receiver.requests()).isEqualTo(4 * 4);
    var dead = deadLetters.recent(10);
    assertThat(dead).hasSize(4).allSatisfy(letter -> {
      assertThat(letter.endpointId()).isEqualTo(created.endpoint().id());
      assertThat(letter.attempts()).isEqualTo(4);
      assertThat(letter.lastError()).isEqualTo("status 500");
      assertThat(letter.eventType()).isEqualTo("dev.tidings.audience.subscribed");
    });
    assertThat(dead.stream().map(WebhookDeadLetters.DeadLetter::eventId))
        .containsExactlyInAnyOrderElementsOf(ids(events));
    // what the row keeps: the event, never the secret or a signature
    String rows = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT string_agg(row_to_json(d)::text, ' ') FROM webhook_dead_letters d")
            .mapTo(String.class)
            .one());
    assertThat(rows)
        .doesNotContain(secret)
        .doesNotContain(secret.substring(6))
        .doesNotContain("v1,");
    assertThat(counted("dead")).isEqualTo(4);
    assertThat(counted("failed")).isEqualTo(16);
    assertThat(registry.get("tidings_webhook_dead_letters").gauge().value()).isEqualTo(4);

    receiver.plan(n -> StandardWebhooksReceiver.Behaviour.ANSWER);
    assertThat(deadLetters.replay(dead.getFirst().id())).isPresent();
    assertThat(deadLetters.replay(dead.getFirst().id())).isEmpty();
    assertThat(deadLetters.replayAll(created.endpoint().id())).isEqualTo(3);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> receiver.verified.keySet().containsAll(ids(events)));
    assertThat(deadLetters.count()).isZero();
    assertThat(receiver.unverified()).isZero();
    assertThat(endpoints.get(created.endpoint().id()).orElseThrow().failuresInARow())
        .isZero();
  }

  @Test
  void only_enabled_endpoints_that_chose_the_type_are_sent_it() throws Exception {
    startSenders(new RetrySchedule(List.of(FAST), 0));
    var opens = receiver(List.of());
    var everything = receiver(List.of());
    var disabled = receiver(List.of());
    var onlyOpens = endpoints.create(new EndpointFields(
        Optional.of(opens.url()),
        Optional.of("opens"),
        Optional.of(Set.of(dev.tidings.events.CloudEventType.OPENED)),
        Optional.empty()));
    opens.secrets(List.of(onlyOpens.secret().value()));
    everything.secrets(List.of(endpoints.create(at(everything.url())).secret().value()));
    var off = endpoints.create(new EndpointFields(
        Optional.of(disabled.url()), Optional.empty(), Optional.empty(), Optional.of(false)));
    disabled.secrets(List.of(off.secret().value()));

    var subscribed = subscriptions(2);
    var opened = ReceivedEvents.of(new Opened("m9", 3, "s9", Instant.now()));
    var all = new ArrayList<>(subscribed);
    all.addAll(opened);
    fanOut.apply(all);

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> everything.verified.keySet().containsAll(ids(all)));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> opens.verified.keySet().containsAll(ids(opened)));
    Thread.sleep(300);
    assertThat(opens.verified.keySet()).isEqualTo(ids(opened));
    assertThat(disabled.requests()).isZero();
  }
}
