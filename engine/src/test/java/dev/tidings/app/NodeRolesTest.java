package dev.tidings.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.SuppressionListener;
import dev.tidings.campaign.send.SendOptions;
import dev.tidings.config.SettingsLoader;
import dev.tidings.delivery.ReceiptQueue;
import dev.tidings.journeys.Due;
import dev.tidings.journeys.EntryListener;
import dev.tidings.notify.ProductNewsListener;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.optimize.ExperimentStepsListener;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.sendtime.OpenHoursListener;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.RouteGroup;
import dev.tidings.webhooks.WebhookDelivery;
import dev.tidings.webhooks.WebhookFanOut;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * serve, worker and demo differ only in which groups of the capabilities they start: a capability's
 * routes run where the role serves, its consumers where the role consumes, and health everywhere.
 */
@StartsServers
class NodeRolesTest {
  @TempDir
  Path dataDir;

  private final String queue = "roles-" + UUID.randomUUID();
  private final BlockingQueue<String> consumed = new ArrayBlockingQueue<>(10);
  private final HttpClient http = HttpClient.newHttpClient();

  /** A capability with one route and one consumer, as a real one registers them. */
  private final class Echo implements Capability {
    @Override
    public List<RouteGroup> routes() {
      return List.of(routing -> routing.get("/echo", (request, response) -> response.send("echo")));
    }

    @Override
    public List<ConsumerGroup> consumers() {
      return List.of(consumers -> consumers.consume(QueueSpec.of(queue), 1, 1, delivery -> {
        consumed.add(new String(delivery.body(), UTF_8));
        return Disposition.ACK;
      }));
    }
  }

  private Node node() {
    String url = TestDatabases.embeddedServer().connectionSpec(4).jdbcUrl();
    var settings = SettingsLoader.load(Map.of(
        "TIDINGS_DATA_DIR",
        dataDir.toString(),
        "TIDINGS_DB_URL",
        url,
        "TIDINGS_DB_USER",
        "postgres"));
    return new Node(new Infrastructure(settings), infrastructure -> {
      var capabilities = new ArrayList<>(Capabilities.of(infrastructure, NodeAdditions.NONE));
      capabilities.add(new Echo());
      return capabilities;
    });
  }

  private int status(Node node, String path) throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + path))
        .build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private void publish(Node node, String body) {
    node.infrastructure().workQueue().declare(QueueSpec.of(queue));
    node.infrastructure().workQueue().publish(queue, Message.of(body.getBytes(UTF_8), 1));
  }

  @Test
  void a_worker_runs_the_consumers_and_health_but_no_routes() throws Exception {
    try (var node = node()) {
      node.start(Role.WORKER, 0);
      assertThat(node.consumedQueues())
          .as("every capability's consumers, this test's among them")
          .containsExactlyInAnyOrder(
              EngagementRecorder.TOPIC.name(),
              ReceiptQueue.TOPIC.name(),
              SendOptions.defaults().receiptQueueName(),
              EngagementRecorder.RECEIPTS_TOPIC.name(),
              SendOptions.defaults().queueName(),
              WebhookDelivery.TOPIC.name(),
              "tidings.events." + SuppressionListener.NAME,
              "tidings.events." + ProductNewsListener.NAME,
              "tidings.events." + ExperimentStepsListener.NAME,
              "tidings.events." + OpenHoursListener.NAME,
              "tidings.events." + WebhookFanOut.NAME,
              Due.TOPIC.name(),
              "tidings.events." + EntryListener.NAME,
              queue);
      publish(node, "to the worker");
      assertThat(consumed.poll(20, TimeUnit.SECONDS)).isEqualTo("to the worker");
      assertThat(status(node, "/health")).isEqualTo(200);
      assertThat(status(node, "/echo")).isEqualTo(404);
      assertThat(status(node, "/")).as("no dashboard on a worker").isEqualTo(404);
      assertThat(node.infrastructure().metrics().scrape())
          .as("a worker's own series, there from the start at 0")
          .contains("tidings_send_emails_total{outcome=\"deferred\"} 0.0")
          .contains("tidings_send_partitions_in_flight 0.0")
          .contains("tidings_receipts_total{status=\"delivered\"} 0.0")
          .contains("tidings_receipts_parked_total 0.0")
          .contains("tidings_queue_depth{queue=\"delivery.receipts\"} 0.0")
          .contains("tidings_queue_depth{queue=\"campaign.send\"} 0.0")
          .contains("tidings_queue_delayed_waiting{queue=\"campaign.send\"} 0.0");
    }
  }

  @Test
  void serve_runs_the_routes_and_leaves_the_queues_to_workers() throws Exception {
    try (var node = node()) {
      node.start(Role.SERVE, 0);
      assertThat(status(node, "/echo")).isEqualTo(200);
      assertThat(status(node, "/health")).isEqualTo(200);
      assertThat(status(node, "/"))
          .as("the dashboard sends a stranger to sign in")
          .isEqualTo(303);
      assertThat(node.consumedQueues()).isEmpty();
      publish(node, "for a worker");
      assertThat(consumed.poll(1, TimeUnit.SECONDS)).isNull();
      assertThat(node.infrastructure().workQueue().depth(queue)).isEqualTo(1);
    }
  }

  @Test
  void serve_on_the_embedded_database_works_its_own_queues_and_elsewhere_leaves_them_to_workers() {
    assertThat(Role.on(Role.SERVE, true)).isEqualTo(Role.SERVE_ALONE);
    assertThat(Role.SERVE_ALONE.startsRoutes()).isTrue();
    assertThat(Role.SERVE_ALONE.startsConsumers()).isTrue();
    assertThat(Role.on(Role.SERVE, false)).isEqualTo(Role.SERVE);
    assertThat(Role.on(Role.WORKER, true)).isEqualTo(Role.WORKER);
    assertThat(Role.on(Role.DEMO, false)).isEqualTo(Role.DEMO);
  }

  @Test
  void demo_runs_both() throws Exception {
    try (var node = node()) {
      node.start(Role.DEMO, 0);
      assertThat(status(node, "/echo")).isEqualTo(200);
      publish(node, "to the demo");
      assertThat(consumed.poll(20, TimeUnit.SECONDS)).isEqualTo("to the demo");
    }
  }

  @Test
  void a_capability_opens_only_what_it_uses() {
    try (var node = node()) {
      node.capability(CatalogWiring.class).catalog().count();
      assertThat(node.infrastructure().dependencyChecks())
          .extracting(check -> check.name())
          .containsExactly("postgresql");
    }
  }
}
