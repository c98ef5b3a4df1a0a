package dev.tidings.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.catalog.ProductJson;
import dev.tidings.config.SettingsLoader;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.mail.CountedMailTransport;
import dev.tidings.mail.outbox.OutboxMailTransport;
import dev.tidings.queue.Disposition;
import dev.tidings.queue.Message;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.postgres.PostgresWorkQueue;
import dev.tidings.testing.StartsServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The zero-install default: a node on its own PostgreSQL under the data directory, kept across restarts. */
@StartsServers
class EmbeddedNodeTest {
  @TempDir
  Path dataDir;

  @Test
  void a_second_start_reuses_the_data_directory() throws Exception {
    var settings = SettingsLoader.load(Map.of("TIDINGS_DATA_DIR", dataDir.toString()));
    String apiKey;
    try (var node = Node.of(settings)) {
      var infrastructure = node.infrastructure();
      infrastructure.openAll();
      assertThat(infrastructure.apiKeyIsNew()).isTrue();
      apiKey = infrastructure.apiKey().value();
      assertThat(infrastructure.workQueue()).isInstanceOf(PostgresWorkQueue.class);
      assertThat(infrastructure.mail())
          .isInstanceOfSatisfying(
              CountedMailTransport.class,
              counted -> assertThat(counted.transport()).isInstanceOf(OutboxMailTransport.class));
      assertThat(infrastructure.coordination().computeOnce().getClass().getPackageName())
          .isEqualTo(InProcessCoordination.class.getPackageName());
      assertThat(infrastructure.dependencyChecks())
          .allSatisfy(
              check -> assertThat(check.problem().get()).as(check.name()).isEmpty());
      assertThat(infrastructure.metrics().scrape())
          .contains("hikaricp_connections_active")
          .contains("jvm_memory_used_bytes");
      node.capability(CatalogWiring.class)
          .catalog()
          .put(ProductJson.fromJson(Json.MAPPER.readTree("""
          {"id":"kept-1","title":"Kept","price":"1.00","currency":"EUR","imageUrl":"https://i.example/k.png","landingUrl":"https://s.example/k"}""")));
      var countdown = infrastructure.coordination().countdown();
      assertThat(countdown.start("kept-run", 3, "run-1", Duration.ofHours(1))).isTrue();
      countdown.finish(countdown.claim("kept-run", 0, Duration.ofMinutes(1)).orElseThrow());
      infrastructure.workQueue().declare(QueueSpec.of("kept-queue"));
      infrastructure
          .workQueue()
          .publish("kept-queue", Message.of("survives a restart".getBytes(UTF_8), 3));
    }
    try (var node = Node.of(settings)) {
      var infrastructure = node.infrastructure();
      assertThat(infrastructure.apiKeyIsNew()).isFalse();
      assertThat(infrastructure.apiKey().value()).isEqualTo(apiKey);
      assertThat(node.capability(CatalogWiring.class).catalog().get("kept-1")).isPresent();
      assertThat(infrastructure.coordination().countdown().remaining("kept-run"))
          .as("a campaign's countdown survives the restart")
          .hasValue(2);
      var received = new ArrayBlockingQueue<String>(1);
      try (var _ = infrastructure.workQueue().subscribe("kept-queue", 1, 1, delivery -> {
        received.add(new String(delivery.body(), UTF_8));
        return Disposition.ACK;
      })) {
        assertThat(received.poll(20, TimeUnit.SECONDS)).isEqualTo("survives a restart");
      }
    }
    assertThat(dataDir.resolve("pg")).isDirectory();
  }
}
