package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.message.MessageId;
import dev.tidings.testing.NodeProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 4d: people enter an abandoned-cart journey (wait 2 s, then send a campaign's email) on a
 * server node and two workers over the shared PostgreSQL, Redis and RabbitMQ, and one worker is killed
 * with SIGKILL while carts keep arriving: some people wait, some are due, some emails are in flight.
 * A replacement worker is started. The oracle, for the journey's send step: nobody gets its email twice
 * (across every worker's outbox, the killed one's included), nobody is skipped, everybody leaves the
 * journey having completed it, and each person either has the email or is counted unknown in the step's
 * figures, which come from the campaigns' send ledger: sent + unknown = entrants. An email the killed
 * worker had handed to its transport comes straight back to another worker (RabbitMQ redelivers a dead
 * consumer's messages at once), which counts it unknown once the handover is older than the lease.
 */
@Timeout(300)
class JourneyWorkerKilledFaultIT {
  private static final int PEOPLE = 300;
  /** People per POST /api/v1/events: carts arrive over several seconds, across the kill. */
  private static final int PER_POST = 10;

  private static final Duration BETWEEN_POSTS = Duration.ofMillis(200);
  /** Emails in the outboxes before the kill: sending has begun, most of it is still ahead. */
  private static final int EMAILS_BEFORE_KILL = 10;

  private static final String SEND_STEP = "reminder";

  @Test
  void a_worker_killed_while_journey_steps_are_due_sends_no_step_twice_and_skips_none()
      throws Exception {
    try (var nodes = CampaignNodes.create(
        "journeykill",
        // a short lease, as the other worker scenarios use: a triggered email its worker handed to
        // the transport and never marked is settled unknown once the lease has passed
        Map.of("TIDINGS_SEND_LEASE_TTL", "PT3S"))) {
      nodes.startServer();
      nodes.startWorker(List.of());
      nodes.startWorker(List.of());
      for (NodeProcess worker : nodes.workers()) nodes.awaitHealthy(worker);
      try {
        scenario(nodes);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(e.getMessage() + logTails(nodes), e);
      }
    }
  }

  private void scenario(CampaignNodes nodes) throws Exception {
    List<String> addresses = nodes.importSubscribers(PEOPLE);
    List<String> people =
        addresses.stream().map(a -> a.substring(0, a.indexOf('@'))).toList();
    long campaign = campaign(nodes);
    long journey = journey(nodes, campaign);

    // carts keep arriving after the kill: people are waiting and due across it, not only emails
    Optional<Kill> kill = Optional.empty();
    Optional<Duration> recovered = Optional.empty();
    for (int from = 0; from < PEOPLE; from += PER_POST) {
      carts(nodes, people.subList(from, Math.min(PEOPLE, from + PER_POST)));
      if (kill.isEmpty()) kill = killOnceSending(nodes, journey, false);
      else if (recovered.isEmpty()) recovered = sentSince(nodes, journey, kill.get());
      Thread.sleep(BETWEEN_POSTS);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (kill.isEmpty()) {
      assertThat(System.nanoTime())
          .as("%d emails in the outboxes before the kill", EMAILS_BEFORE_KILL)
          .isLessThan(deadline);
      Thread.sleep(100);
      kill = killOnceSending(nodes, journey, true);
    }
    Kill killed = kill.get();
    Duration recovery =
        recovered.isPresent() ? recovered.get() : awaitSentMore(nodes, journey, killed);
    JsonNode figures = awaitSettled(nodes, journey, campaign);
    JsonNode emails = step(figures, SEND_STEP).path("emails");
    long sent = emails.path("sent").asLong();
    long unknown = emails.path("unknown").asLong();

    assertThat(figures.path("entries").asLong()).as("entries: %s", figures).isEqualTo(PEOPLE);
    assertThat(figures.path("inside").asLong()).as("inside: %s", figures).isZero();
    assertThat(fields(figures.path("exits")))
        .as("everyone completed the journey: %s", figures)
        .isEqualTo(Map.of("COMPLETED", (long) PEOPLE));
    assertThat(step(figures, SEND_STEP).path("sent").asLong())
        .as("people the step sent to: %s", figures)
        .isEqualTo(PEOPLE);
    assertThat(emails.path("planned").asLong()).as("emails: %s", emails).isEqualTo(PEOPLE);
    assertThat(emails.path("skipped").asLong()).as("skipped: %s", emails).isZero();
    assertThat(emails.path("failed").asLong()).as("failed: %s", emails).isZero();
    assertThat(sent + unknown).as("sent + unknown: %s", emails).isEqualTo(PEOPLE);

    Set<String> unknownPeople = nodes.recipientsIn(campaign, "unknown");
    assertThat(unknownPeople).as("unknown in the ledger").hasSize((int) unknown);
    List<CampaignNodes.Email> outboxes = nodes.outboxes();
    // every email is this step's, for its recipient: the key (journey, step, entry 1) names one run
    Set<Long> runs = new HashSet<>();
    for (CampaignNodes.Email email : outboxes) {
      MessageId id = MessageId.parse(email.messageId())
          .orElseThrow(() -> new AssertionError("no message id in an email to " + email.to()));
      assertThat(id.campaignId()).isEqualTo(campaign);
      assertThat(id.subscriberId() + "@example.test").isEqualTo(email.to());
      runs.add(id.runId());
    }
    assertThat(runs).as("the step's runs").hasSize(1);
    List<String> emailed = outboxes.stream().map(CampaignNodes.Email::to).toList();
    Set<String> unknownAddresses =
        unknownPeople.stream().map(id -> id + "@example.test").collect(Collectors.toSet());
    // an unknown person may or may not have the email (it was handed to the killed worker's
    // transport): they count as neither lost nor sent, and never twice
    Tally tally = Tally.of(
        addresses.stream().filter(a -> !unknownAddresses.contains(a)).toList(),
        emailed.stream().filter(a -> !unknownAddresses.contains(a)).toList());
    long unknownTwice = unknownAddresses.stream()
        .filter(a -> emailed.stream().filter(a::equals).count() > 1)
        .count();
    long unknownEmailed = unknownAddresses.stream().filter(emailed::contains).count();
    assertThat(new HashSet<>(emailed).size() - unknownEmailed)
        .as("people with an email the ledger counts sent")
        .isEqualTo(sent);
    long unknownInVictim = CampaignNodes.outbox(killed.victim()).stream()
        .filter(email -> unknownAddresses.contains(email.to()))
        .count();

    FaultReport.recordAndCheck(new FaultReport.Outcome(
        "4d worker killed while journey steps are due",
        "shared PostgreSQL, Redis, RabbitMQ; server + 2 workers, SIGKILL x1 (a replacement started)",
        PEOPLE,
        emailed.size(),
        tally.lost(),
        tally.duplicated() + unknownTwice,
        unknown,
        recovery,
        ("killed after %d emails, with %d people still inside; step %s: sent %d, unknown %d (of"
                + " them %d with the email in the killed worker's outbox), skipped 0; recovery ="
                + " SIGKILL -> the next email counted sent; 40/s, wait 2 s, lease TTL 3 s")
            .formatted(
                killed.emails(), killed.inside(), SEND_STEP, sent, unknown, unknownInVictim)));
  }

  /** What the outboxes and the figures said when a worker was killed. */
  private record Kill(NodeProcess victim, int emails, long inside, long sent, long atNanos) {}

  /**
   * Kills the worker whose outbox holds the most emails once the outboxes hold {@link
   * #EMAILS_BEFORE_KILL}, and starts a replacement at once, as a supervisor would; empty before then.
   */
  private static Optional<Kill> killOnceSending(
      CampaignNodes nodes, long journey, boolean postedAll) throws Exception {
    Map<NodeProcess, Integer> counts = new HashMap<>();
    for (NodeProcess worker : nodes.workers())
      counts.put(worker, CampaignNodes.outbox(worker).size());
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    if (total < EMAILS_BEFORE_KILL) return Optional.empty();
    NodeProcess victim = counts.entrySet().stream()
        .max(Comparator.comparingInt(Map.Entry::getValue))
        .orElseThrow()
        .getKey();
    victim.signal("KILL");
    long at = System.nanoTime();
    nodes.startWorker(List.of());
    JsonNode figures = figures(nodes, journey);
    System.out.printf(
        "[journey-kill] SIGKILL to the worker with %d of %d emails%s; figures then: %s%n",
        counts.get(victim), total, postedAll ? " after every cart was posted" : "", figures);
    return Optional.of(new Kill(
        victim,
        total,
        figures.path("inside").asLong(),
        step(figures, SEND_STEP).path("emails").path("sent").asLong(),
        at));
  }

  /** The time from the kill to the ledger counting one more email sent; empty before then. */
  private static Optional<Duration> sentSince(CampaignNodes nodes, long journey, Kill kill)
      throws Exception {
    long sent =
        step(figures(nodes, journey), SEND_STEP).path("emails").path("sent").asLong();
    return sent > kill.sent()
        ? Optional.of(Duration.ofNanos(System.nanoTime() - kill.atNanos()))
        : Optional.empty();
  }

  private static Duration awaitSentMore(CampaignNodes nodes, long journey, Kill kill)
      throws Exception {
    long deadline = kill.atNanos() + Duration.ofSeconds(120).toNanos();
    while (true) {
      Optional<Duration> recovered = sentSince(nodes, journey, kill);
      if (recovered.isPresent()) return recovered.get();
      assertThat(System.nanoTime())
          .as("an email sent after the kill; figures: %s", figures(nodes, journey))
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /**
   * Waits until everyone has left the journey and the ledger has an outcome for each of the step's
   * emails: a lost look is swept after 30 s, a dead worker's claim is settled after its lease.
   */
  private static JsonNode awaitSettled(CampaignNodes nodes, long journey, long campaign)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
    while (true) {
      JsonNode figures = figures(nodes, journey);
      JsonNode emails = step(figures, SEND_STEP).path("emails");
      long outcomes = emails.path("sent").asLong()
          + emails.path("failed").asLong()
          + emails.path("unknown").asLong()
          + emails.path("skipped").asLong();
      if (figures.path("inside").asLong() == 0 && outcomes == PEOPLE) return figures;
      if (System.nanoTime() > deadline)
        throw new AssertionError(("everyone out and every email settled within 180 s; figures:"
                + " %s; in the ledger still planned: %s, sending: %s, handed over: %s")
            .formatted(
                figures,
                nodes.recipientsIn(campaign, "planned"),
                nodes.recipientsIn(campaign, "sending"),
                nodes.recipientsIn(campaign, "handed_over")));
      Thread.sleep(250);
    }
  }

  private static long campaign(CampaignNodes nodes) throws Exception {
    // 40 a second: 300 emails take several seconds, so some are in flight when the worker dies
    var created = nodes.call("POST", "/api/v1/campaigns", """
        {"name": "Still in your cart", "from": {"email": "news@shop.test", "name": "Shop"},
         "subject": "Still in your cart",
         "html": "<html><body><p>Your cart misses you</p></body></html>",
         "text": "Your cart misses you", "ratePerSecond": 40, "audience": {"type": "all"}}""");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return Json.MAPPER.readTree(created.body()).path("id").asLong();
  }

  private static long journey(CampaignNodes nodes, long campaign) throws Exception {
    var made =
        nodes.call("POST", "/api/v1/journeys", """
        {"name": "Abandoned cart, worker killed",
         "trigger": {"type": "did", "activity": "add_to_cart", "within": "PT1H"},
         "steps": [
           {"id": "wait", "type": "wait", "for": "PT2S", "next": "%s"},
           {"id": "%s", "type": "send", "campaignId": %d}],
         "holdOut": 0}""".formatted(SEND_STEP, SEND_STEP, campaign));
    assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
    long id = Json.MAPPER.readTree(made.body()).path("id").asLong();
    var activated = nodes.call("POST", "/api/v1/journeys/" + id + "/activate", "");
    assertThat(activated.statusCode()).as(activated.body()).isEqualTo(200);
    // a node reads the journeys' states at most once a second
    Thread.sleep(1_200);
    return id;
  }

  private static void carts(CampaignNodes nodes, List<String> people) throws Exception {
    String now = Instant.now().toString();
    String events = people.stream()
        .map(person ->
            "{\"userId\": \"%s\", \"type\": \"add_to_cart\", \"itemId\": \"boots\", \"timestamp\": \"%s\"}"
                .formatted(person, now))
        .collect(Collectors.joining(",", "[", "]"));
    var answer = nodes.call("POST", "/api/v1/events", events);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
  }

  private static JsonNode figures(CampaignNodes nodes, long journey) throws Exception {
    var answer = nodes.call("GET", "/api/v1/journeys/" + journey + "/figures", "");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return Json.MAPPER.readTree(answer.body());
  }

  private static JsonNode step(JsonNode figures, String id) {
    for (JsonNode step : figures.path("steps"))
      if (step.path("step").asString().equals(id)) return step;
    throw new AssertionError("no step " + id + " in " + figures);
  }

  private static Map<String, Long> fields(JsonNode object) {
    Map<String, Long> fields = new HashMap<>();
    for (var field : object.properties())
      fields.put(field.getKey(), field.getValue().asLong());
    return fields;
  }

  /** The end of every node's log, the killed worker's included, so a failure explains itself. */
  private static String logTails(CampaignNodes nodes) {
    var out = new StringBuilder();
    List<NodeProcess> all = new ArrayList<>();
    all.add(nodes.server());
    all.addAll(nodes.workers());
    for (NodeProcess node : all) {
      String log = node.log();
      out.append("\n--- ")
          .append(node == nodes.server() ? "server" : "worker " + node.pid())
          .append(node.alive() ? "" : " (dead)")
          .append(", last 5,000 characters of its log:\n")
          .append(log.substring(Math.max(0, log.length() - 5_000)));
    }
    return out.toString();
  }
}
