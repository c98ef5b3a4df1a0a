package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.CampaignClient;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.PostgresStandbyPair;
import dev.tidings.testing.SharedServersInstallation;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 3a: a server node and two worker processes send a campaign on a PostgreSQL primary with
 * a synchronous standby, named together in the nodes' multi-host {@code TIDINGS_DB_URL}; mid-send
 * the primary is killed (SIGKILL) and the standby promoted. The nodes find the new primary by
 * themselves; the campaign completes, every recipient got one email (the workers' outboxes) or is
 * reported unknown, none got two. Redis and RabbitMQ are the machine's, with queues of the
 * installation's own.
 */
@Timeout(300)
class PostgresPromotionCampaignFaultIT {
  private static final String KEY = "tk_pg_promotion_campaign_key_0123456789";
  private static final int RECIPIENTS = 1_000;
  private final HttpClient http = HttpClient.newHttpClient();
  private final CampaignClient api = new CampaignClient(http, KEY);

  @Test
  void a_campaign_completes_once_per_recipient_across_a_promotion() throws Exception {
    var installation = SharedServersInstallation.create("pgpromo", KEY);
    var nodes = new ArrayList<NodeProcess>();
    try (var pair = PostgresStandbyPair.start(PostgresStandbyPair.Replication.SYNCHRONOUS)) {
      var environment = installation.environment();
      environment.put("TIDINGS_DB_URL", pair.multiHostUrl());
      environment.put("TIDINGS_DB_POOL_SIZE", "8");
      environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
      var server = NodeProcess.start(environment);
      var workers = List.of(
          NodeProcess.start("worker", List.of(), environment),
          NodeProcess.start("worker", List.of(), environment));
      nodes.add(server);
      nodes.addAll(workers);
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      api.importSubscribers(server, RECIPIENTS);
      long campaign = api.startCampaign(server, "Promoted mid-way", 80);

      long sentAtKill = api.awaitSent(server, campaign, RECIPIENTS / 5, Duration.ofSeconds(90));
      long killedAt = System.nanoTime();
      pair.killPrimary();
      pair.promoteStandby();
      long promotedAt = System.nanoTime();
      assertThat(sentAtKill)
          .as("the campaign was still sending at the kill")
          .isLessThan(RECIPIENTS);
      // the first send recorded after the kill was written on the promoted standby
      long sentAfter = sentAtKill;
      while (sentAfter <= sentAtKill) {
        sentAfter = api.campaign(server, campaign)
            .map(json -> json.path("progress").path("sent").asLong())
            .orElse(sentAtKill);
        assertThat(System.nanoTime() - killedAt)
            .as("sending resumed on the promoted standby within 90 s")
            .isLessThan(Duration.ofSeconds(90).toNanos());
        Thread.sleep(100);
      }
      Duration recovery = Duration.ofNanos(System.nanoTime() - killedAt);
      Duration promotion = Duration.ofNanos(promotedAt - killedAt);

      JsonNode done = api.awaitCompleted(server, campaign, Duration.ofSeconds(150));
      for (NodeProcess node : nodes)
        assertThat(node.alive())
            .as("a node survived the promotion; its log:%n%s", node.log())
            .isTrue();
      List<String> emailed = new ArrayList<>();
      for (NodeProcess worker : workers) emailed.addAll(CampaignClient.outboxRecipients(worker));
      List<String> recipients =
          IntStream.range(0, RECIPIENTS).mapToObj(CampaignClient::recipient).toList();
      long unknown = done.path("unknown").asLong();
      Tally tally = Tally.of(recipients, emailed);
      // a recipient reported unknown may have no email
      // (the send's outcome was not recorded): not lost
      long lost = Math.max(0, tally.lost() - unknown);
      FaultReport.recordAndCheck(new FaultReport.Outcome(
          "3a PostgreSQL primary killed, standby promoted, during a campaign",
          "PostgreSQL primary + synchronous streaming standby (multi-host URL), 1 server + 2 worker"
              + " processes, Redis, RabbitMQ",
          tally.acknowledged(),
          tally.stored(),
          lost,
          tally.duplicated(),
          unknown,
          recovery,
          "promotion took " + promotion.toMillis() + " ms; " + sentAtKill + " sent at the kill; "
              + "progress sent " + done.path("sent").asLong() + ", failed "
              + done.path("failed").asLong() + ", unknown " + unknown));
      assertThat(done.path("sent").asLong() + done.path("failed").asLong() + unknown)
          .as("every recipient accounted for")
          .isEqualTo(RECIPIENTS);
      assertThat(new HashSet<>(emailed))
          .as("only the campaign's recipients")
          .isSubsetOf(recipients);
    } finally {
      for (NodeProcess node : nodes) node.close();
      installation.drop();
    }
  }
}
