package dev.tidings.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.testing.NodeProcess;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code tidings demo} in a terminal, stopped with Ctrl-C while its readers open and click: the
 * terminal's SIGINT reaches the whole foreground process group at once, and the demo still stops in
 * order (its embedded database last, in a group of its own), within its grace, quietly, with exit 0.
 */
class DemoStopIT {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void ctrl_c_stops_the_demo_mid_engagement_quietly_with_exit_0() throws Exception {
    try (var demo = NodeProcess.startAsTerminalJob(
        List.of("demo", "--subscribers", "300", "--products", "60", "--engagement-minutes", "5"),
        List.of(),
        Map.of("TIDINGS_SHUTDOWN_GRACE", "PT10S"))) {
      demo.awaitHealthy(http, Duration.ofSeconds(180));
      awaitLogged(demo, "demo readers:", Duration.ofSeconds(120));
      Thread.sleep(2_000); // the readers mid-flight

      long start = System.nanoTime();
      demo.signalGroup("INT");
      var status = demo.awaitExit(Duration.ofSeconds(40));

      Duration took = Duration.ofNanos(System.nanoTime() - start);
      String log = demo.log();
      assertThat(status).as("exit status; the log:%n%s", log).hasValue(0);
      assertThat(took)
          .as("within the grace and the stop's own steps")
          .isLessThan(Duration.ofSeconds(20));
      String stopping = log.substring(log.indexOf("stopping..."));
      assertThat(stopping)
          .contains("stopped.")
          .doesNotContain(" WARN ")
          .doesNotContain(" ERROR ")
          .doesNotContain("Exception");
      assertThat(ProcessHandle.allProcesses()
              .filter(process -> process
                  .info()
                  .commandLine()
                  .orElse("")
                  .contains(demo.dataDir().resolve("pg").toString()))
              .toList())
          .as("the embedded database of the stopped demo")
          .isEmpty();
    }
  }

  private static void awaitLogged(NodeProcess demo, String text, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      if (demo.log().contains(text)) return;
      Thread.sleep(200);
    }
    throw new IllegalStateException("the demo never logged '" + text + "':\n" + demo.log());
  }
}
