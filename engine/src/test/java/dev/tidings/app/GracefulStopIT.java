package dev.tidings.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.NodeProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node on the embedded database, stopped as an operator stops it (SIGTERM from systemd or
 * Kubernetes, SIGINT from Ctrl-C): it drains and closes in order, the embedded database last, within
 * its grace period, says nothing alarming on the way, exits 0 and leaves no database process behind.
 */
class GracefulStopIT {
  private final HttpClient http = HttpClient.newHttpClient();

  @ParameterizedTest
  @CsvSource({"serve, TERM", "worker, INT"})
  void a_node_stops_in_order_quietly_and_exits_0(String role, String signal) throws Exception {
    try (var node = NodeProcess.start(
        role, List.of(), Map.of("TIDINGS_LOG_FORMAT", "text", "TIDINGS_SHUTDOWN_GRACE", "PT5S"))) {
      node.awaitHealthy(http, Duration.ofSeconds(120));
      long start = System.nanoTime();

      node.signal(signal);
      var status = node.awaitExit(Duration.ofSeconds(30));

      Duration took = Duration.ofNanos(System.nanoTime() - start);
      String log = node.log();
      assertThat(status).as("exit status; the log:%n%s", log).hasValue(0);
      assertThat(took).isLessThan(Duration.ofSeconds(15));
      String stopping = log.substring(log.indexOf("stopping..."));
      assertThat(stopping)
          .contains("stopped.")
          .doesNotContain(" WARN ")
          .doesNotContain("Exception");
      assertThat(ProcessHandle.allProcesses()
              .filter(process -> process
                  .info()
                  .commandLine()
                  .orElse("")
                  .contains(node.dataDir().resolve("pg").toString()))
              .toList())
          .as("the embedded database of the stopped node")
          .isEmpty();
    }
  }

  @Test
  void a_node_with_a_dashboard_page_open_ends_its_live_stream_and_stops_long_before_its_grace()
      throws Exception {
    String key = "graceful-stop-key-0123456789";
    try (var node = NodeProcess.start(
        "serve", List.of(), Map.of("TIDINGS_API_KEY", key, "TIDINGS_SHUTDOWN_GRACE", "PT30S"))) {
      node.awaitHealthy(http, Duration.ofSeconds(120));
      var signedIn = http.send(
          HttpRequest.newBuilder(node.uri("/signin"))
              .header("Content-Type", "application/x-www-form-urlencoded")
              .POST(HttpRequest.BodyPublishers.ofString("key=" + key + "&next=%2F"))
              .build(),
          HttpResponse.BodyHandlers.discarding());
      String cookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
      var stream = http.sendAsync(
          HttpRequest.newBuilder(node.uri("/live/campaigns"))
              .header("Cookie", cookie)
              .build(),
          HttpResponse.BodyHandlers.ofLines());
      var lines = stream.get(20, TimeUnit.SECONDS).body().iterator();
      assertThat(lines.next()).as("the stream is open").startsWith("retry:");

      long start = System.nanoTime();
      node.signal("TERM");
      var status = node.awaitExit(Duration.ofSeconds(40));

      assertThat(status).as("exit status; the log:%n%s", node.log()).hasValue(0);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("the open page does not hold the stop for the 30 s grace")
          .isLessThan(Duration.ofSeconds(10));
    }
  }
}
