package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 4b: a worker frozen with SIGSTOP mid-campaign past its partitions' leases, another worker
 * takes them over, then the frozen one is woken with SIGCONT. Whatever it was doing when it froze, its
 * late writes carry a superseded fence and are refused (counted in {@code
 * tidings_send_stale_writes_refused_total} on its /metrics). An email it had already handed to its
 * transport is delivered when it wakes: the takeover recorded that recipient as unknown and nobody
 * sends it again, so the oracle of 4a holds: one email each, or unknown, and never two.
 */
@Timeout(240)
class WorkerPausedFaultIT {
  private static final int RECIPIENTS = 1_000;
  private static final Duration LEASE = Duration.ofSeconds(3);

  @Test
  void a_worker_paused_past_its_lease_is_fenced_off_when_it_wakes() throws Exception {
    try (var nodes = CampaignNodes.create(
        "pause",
        Map.of(
            "TIDINGS_SEND_PARTITION_SIZE", "40",
            "TIDINGS_SEND_LEASE_TTL", "PT3S",
            "TIDINGS_SEND_CHUNK", "10"))) {
      nodes.startServer();
      var paused = nodes.startWorker(List.of());
      var other = nodes.startWorker(List.of());
      nodes.awaitHealthy(paused);
      nodes.awaitHealthy(other);
      List<String> recipients = nodes.importSubscribers(RECIPIENTS);
      long campaign = nodes.sendCampaign("Paused worker", 60);

      nodes.awaitSent(campaign, 200, Duration.ofSeconds(60));
      long pausedAt = System.nanoTime();
      paused.signal("STOP");
      int logAtPause = paused.log().length();
      Set<String> held = nodes.recipientsIn(campaign, "sending", "handed_over");
      Duration recovery = nodes.awaitSettled(campaign, held, pausedAt, Duration.ofSeconds(60));
      // well past its leases: whatever it holds has been taken over
      Thread.sleep(Math.max(0, LEASE.multipliedBy(2).toMillis() - recovery.toMillis()));
      long sentWhilePaused =
          nodes.campaign(campaign).path("progress").path("sent").asLong();
      paused.signal("CONT");

      JsonNode progress = nodes.awaitCompleted(campaign, Duration.ofSeconds(120));
      long sent = progress.path("sent").asLong();
      long failed = progress.path("failed").asLong();
      long unknown = progress.path("unknown").asLong();
      assertThat(sent + failed + unknown).as("progress %s", progress).isEqualTo(RECIPIENTS);
      assertThat(sentWhilePaused)
          .as("the campaign went on while the worker was frozen")
          .isLessThan(RECIPIENTS);
      // the woken worker has seen its fence superseded once it is past its next step: a write the
      // fence refused, counted; or, frozen while it waited for the rate, it notices its lease ran
      // out on its own clock, writes nothing (the count stays 0) and says it stopped
      nodes.awaitHealthy(paused);
      try {
        await("the woken worker to give up the partitions it held when it froze")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> nodes.metric(paused, "tidings_send_stale_writes_refused_total") > 0
                || paused.log().substring(logAtPause).contains("another worker takes it over"));
      } catch (ConditionTimeoutException e) {
        String since = paused.log().substring(logAtPause);
        throw new AssertionError(
            "%s; campaign %s; the woken worker's log since it froze (last 4,000 characters):%n%s"
                .formatted(
                    e.getMessage(), progress, since.substring(Math.max(0, since.length() - 4_000))),
            e);
      }
      double refused = nodes.metric(paused, "tidings_send_stale_writes_refused_total");
      String refusedByWrite = nodes.series(paused, "tidings_send_stale_writes_refused_total");

      Set<String> unknownRecipients = Set.copyOf(nodes.recipientsIn(campaign, "unknown").stream()
          .map(id -> id + "@example.test")
          .toList());
      List<String> emailed =
          nodes.outboxes().stream().map(CampaignNodes.Email::to).toList();
      long unknownDelivered =
          unknownRecipients.stream().filter(emailed::contains).count();
      long unknownTwice = unknownRecipients.stream()
          .filter(r -> emailed.stream().filter(r::equals).count() > 1)
          .count();
      Tally tally = Tally.of(
          recipients.stream().filter(r -> !unknownRecipients.contains(r)).toList(),
          emailed.stream().filter(r -> !unknownRecipients.contains(r)).toList());
      FaultReport.recordAndCheck(new FaultReport.Outcome(
          "4b worker paused past its lease, then woken",
          "shared PostgreSQL, Redis, RabbitMQ; server + 2 workers, SIGSTOP then SIGCONT",
          RECIPIENTS,
          emailed.size(),
          tally.lost(),
          tally.duplicated() + unknownTwice,
          unknown,
          recovery,
          "stale writes refused on the woken worker: %.0f (%s); unknown recipients whose email the"
                  .formatted(refused, refusedByWrite)
              + " woken worker still delivered: " + unknownDelivered
              + "; recovery = SIGSTOP -> every recipient it had claimed settled by the other's takeover;"
              + " lease TTL 3 s"));
    }
  }
}
