package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.CampaignClient;
import dev.tidings.testing.NodeProcess;
import dev.tidings.testing.SharedServersInstallation;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Nodes stopped as systemd or Kubernetes stop them (SIGTERM) while a campaign is sending, on the real
 * PostgreSQL, Redis and RabbitMQ: a server node and a worker node each stop within their grace, quietly
 * and with exit 0, and the campaign finishes on the nodes left, every recipient getting one email.
 */
@Timeout(300)
class StopMidCampaignIT {
  private static final String KEY = "tk_stop_mid_campaign_key_0123456789";
  private static final int RECIPIENTS = 1_500;
  private final HttpClient http = HttpClient.newHttpClient();
  private final CampaignClient api = new CampaignClient(http, KEY);

  @Test
  void a_server_and_a_worker_stopped_mid_campaign_leave_it_to_the_others_who_finish_it()
      throws Exception {
    var installation = SharedServersInstallation.create("stop", KEY);
    var environment = installation.environment();
    environment.put("TIDINGS_SEND_PARTITION_SIZE", "50");
    environment.put("TIDINGS_SHUTDOWN_GRACE", "PT10S");
    var nodes = new ArrayList<NodeProcess>();
    try {
      var leaving = NodeProcess.start(environment);
      var staying = NodeProcess.start(environment);
      var stoppedWorker = NodeProcess.start("worker", List.of(), environment);
      var worker = NodeProcess.start("worker", List.of(), environment);
      nodes.addAll(List.of(leaving, staying, stoppedWorker, worker));
      for (NodeProcess node : nodes) node.awaitHealthy(http, Duration.ofSeconds(120));
      api.importSubscribers(leaving, RECIPIENTS);
      long campaign = api.startCampaign(leaving, "Stopped mid-way", 100);

      api.awaitSent(staying, campaign, 150, Duration.ofSeconds(90));
      stop(stoppedWorker, "worker");
      assertThat(api.awaitSent(staying, campaign, 0, Duration.ofSeconds(20)))
          .as("the campaign was still sending when the worker had stopped")
          .isLessThan(RECIPIENTS);
      stop(leaving, "serve");

      JsonNode done = api.awaitCompleted(staying, campaign, Duration.ofSeconds(150));
      assertThat(done.path("sent").asLong()).isEqualTo(RECIPIENTS);
      assertThat(done.path("failed").asLong()).isZero();
      assertThat(done.path("unknown").asLong()).isZero();
      List<String> recipients = new ArrayList<>();
      for (NodeProcess node : List.of(stoppedWorker, worker))
        recipients.addAll(CampaignClient.outboxRecipients(node));
      assertThat(recipients)
          .as("each recipient got one email, from one worker or the other")
          .hasSize(RECIPIENTS)
          .doesNotHaveDuplicates();
      assertThat(CampaignClient.outboxRecipients(stoppedWorker))
          .as("the stopped worker had sent its share")
          .isNotEmpty();
      assertThat(CampaignClient.outboxRecipients(worker))
          .as("the worker left finished the campaign")
          .isNotEmpty();
    } finally {
      for (NodeProcess node : nodes) node.close();
      installation.drop();
    }
  }

  private void stop(NodeProcess node, String role) throws Exception {
    long start = System.nanoTime();
    node.signal("TERM");
    var status = node.awaitExit(Duration.ofSeconds(40));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    String log = node.log();
    assertThat(status).as("%s exit status; its log:%n%s", role, log).hasValue(0);
    assertThat(took)
        .as("%s stopped within its grace and its steps", role)
        .isLessThan(Duration.ofSeconds(25));
    String stopping = log.substring(log.indexOf("stopping..."));
    assertThat(stopping)
        .as("what %s logged while stopping", role)
        .contains("stopped.")
        .doesNotContain(" WARN ")
        .doesNotContain(" ERROR ")
        .doesNotContain("Exception");
  }
}
