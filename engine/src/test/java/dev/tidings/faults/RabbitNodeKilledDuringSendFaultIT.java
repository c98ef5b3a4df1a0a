package dev.tidings.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.CampaignClient;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.RabbitCluster;
import dev.tidings.testing.SharedServersInstallation;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 2b: a campaign sends through a server node and two workers whose {@code TIDINGS_AMQP_URL}
 * names the three nodes of a RabbitMQ cluster with quorum queues; the node leading the send queue is
 * killed (SIGKILL) mid-send. Every recipient gets one email (in the workers' outboxes) or is counted
 * unknown by the campaign's progress; none gets two.
 */
@Timeout(400)
class RabbitNodeKilledDuringSendFaultIT {
  private static final String KEY = "tk_rabbit_node_killed_key_0123456789";
  private static final int RECIPIENTS = 1_500;
  private final HttpClient http = HttpClient.newHttpClient();
  private final CampaignClient api = new CampaignClient(http, KEY);

  private static RabbitCluster cluster;

  @BeforeAll
  static void servers() {
    cluster = RabbitCluster.get();
  }

  @Test
  void the_node_leading_the_send_queue_killed_mid_send_leaves_no_recipient_twice_or_without_word()
      throws Exception {
    var installation = SharedServersInstallation.create("rabbitkill", KEY);
    var environment = installation.environment();
    environment.put("TIDINGS_AMQP_URL", cluster.amqpUrl().toString());
    environment.put("TIDINGS_AMQP_QUEUE_TYPE", "quorum");
    environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
    var nodes = new ArrayList<NodeProcess>();
    int killed = 0;
    try {
      var server = NodeProcess.start(environment);
      var first = NodeProcess.start("worker", List.of(), environment);
      var second = NodeProcess.start("worker", List.of(), environment);
      nodes.addAll(List.of(server, first, second));
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      api.importSubscribers(server, RECIPIENTS);
      long campaign = api.startCampaign(server, "Broker node lost", 100);

      api.awaitSent(server, campaign, 300, Duration.ofSeconds(120));
      killed = cluster.leaderOf(environment.get("TIDINGS_SEND_QUEUE") + ".p0");
      if (killed == 0) killed = 1;
      long sentBefore = api.awaitSent(server, campaign, 0, Duration.ofSeconds(20));
      long killedAt = System.nanoTime();
      cluster.kill(killed);
      api.awaitSent(server, campaign, sentBefore + 1, Duration.ofSeconds(120));
      Duration recovery = Duration.ofNanos(System.nanoTime() - killedAt);

      JsonNode done = api.awaitCompleted(server, campaign, Duration.ofSeconds(200));
      long unknown = done.path("unknown").asLong();
      List<String> emailed = new ArrayList<>();
      for (NodeProcess node : List.of(first, second))
        emailed.addAll(CampaignClient.outboxRecipients(node));
      var distinct = new HashSet<>(emailed);
      long lost = Math.max(0, RECIPIENTS - distinct.size() - unknown);
      var outcome = new FaultReport.Outcome(
          "2b RabbitMQ node killed during a campaign send",
          "3-node RabbitMQ 3.10, quorum queues; a server and two workers; PostgreSQL, Redis",
          RECIPIENTS,
          emailed.size(),
          lost,
          emailed.size() - distinct.size(),
          unknown,
          recovery,
          String.format(
              "SIGKILL to %s (leading the send queue) after %d of %d sent; progress at the end:"
                  + " sent %d, failed %d, unknown %d; recovery is the kill to the next email"
                  + " counted sent",
              cluster.nodeName(killed),
              sentBefore,
              RECIPIENTS,
              done.path("sent").asLong(),
              done.path("failed").asLong(),
              unknown));
      FaultReport.recordAndCheck(outcome);
      assertThat(done.path("failed").asLong()).as("failed").isZero();
      assertThat(done.path("sent").asLong() + unknown)
          .as("every recipient sent or unknown")
          .isEqualTo(RECIPIENTS);
    } finally {
      for (NodeProcess node : nodes) node.close();
      installation.drop();
      if (killed > 0) cluster.start(killed);
    }
  }
}
