package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.NodeProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 4a: a campaign sent by two worker nodes on the shared PostgreSQL, Redis and RabbitMQ, one
 * worker killed with SIGKILL three times mid-campaign (a replacement started each time). The oracle:
 * every recipient has exactly one email across all the workers' outboxes (a killed worker's outbox
 * counts: it is what that worker handed to its transport) or is reported unknown by the campaign's
 * progress, and the campaign completes with sent + failed + unknown = recipients.
 */
@Timeout(240)
class WorkerKilledFaultIT {
  private static final int RECIPIENTS = 1_000;

  @Test
  void a_worker_killed_three_times_mid_campaign_leaves_each_recipient_one_email_or_unknown()
      throws Exception {
    try (var nodes = CampaignNodes.create(
        "kill",
        Map.of(
            "TIDINGS_SEND_PARTITION_SIZE", "40",
            "TIDINGS_SEND_LEASE_TTL", "PT3S",
            "TIDINGS_SEND_CHUNK", "10"))) {
      nodes.startServer();
      var first = nodes.startWorker(List.of());
      var second = nodes.startWorker(List.of());
      nodes.awaitHealthy(first);
      nodes.awaitHealthy(second);
      List<String> recipients = nodes.importSubscribers(RECIPIENTS);
      long campaign = nodes.sendCampaign("Killed workers", 80);

      var recoveries = new ArrayList<Duration>();
      for (int kill = 0; kill < 3; kill++) {
        // the oldest worker still running: the first two, then the first replacement
        NodeProcess victim = nodes.awaitHealthy(nodes.workers().get(kill));
        nodes.awaitSent(campaign, (kill + 1) * 200L, Duration.ofSeconds(60));
        long killedAt = System.nanoTime();
        victim.signal("KILL");
        Set<String> held = nodes.recipientsIn(campaign, "sending", "handed_over");
        nodes.startWorker(List.of());
        recoveries.add(nodes.awaitSettled(campaign, held, killedAt, Duration.ofSeconds(60)));
      }

      JsonNode progress = nodes.awaitCompleted(campaign, Duration.ofSeconds(120));
      long sent = progress.path("sent").asLong();
      long failed = progress.path("failed").asLong();
      long unknown = progress.path("unknown").asLong();
      assertThat(sent + failed + unknown).as("progress %s", progress).isEqualTo(RECIPIENTS);
      Set<String> unknownRecipients = Set.copyOf(nodes.recipientsIn(campaign, "unknown").stream()
          .map(id -> id + "@example.test")
          .toList());
      assertThat(unknownRecipients).hasSize((int) unknown);

      List<String> emailed =
          nodes.outboxes().stream().map(CampaignNodes.Email::to).toList();
      // an unknown recipient may or may not have the email: neither is lost, one copy at most
      List<String> expected =
          recipients.stream().filter(r -> !unknownRecipients.contains(r)).toList();
      List<String> stored =
          emailed.stream().filter(r -> !unknownRecipients.contains(r)).toList();
      Tally tally = Tally.of(expected, stored);
      long unknownTwice = unknownRecipients.stream()
          .filter(r -> emailed.stream().filter(r::equals).count() > 1)
          .count();
      Duration worst = recoveries.stream().max(Duration::compareTo).orElseThrow();
      FaultReport.recordAndCheck(new FaultReport.Outcome(
          "4a worker killed three times mid-campaign",
          "shared PostgreSQL, Redis, RabbitMQ; server + 2 workers, SIGKILL x3",
          RECIPIENTS,
          emailed.size(),
          tally.lost(),
          tally.duplicated() + unknownTwice,
          unknown,
          worst,
          "recovery is the slowest kill -> every recipient the killed worker had claimed settled"
              + " by another worker's takeover (each: "
              + recoveries.stream()
                  .map(d -> "%.1f s".formatted(d.toMillis() / 1000.0))
                  .toList()
              + "); sent " + sent + ", failed " + failed + ", 80/s, lease TTL 3 s"));
    }
  }
}
