package dev.tidings.queue.rabbitmq;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Faults of one node's RabbitMQ connections, for tests of the capabilities above the queue port: the
 * node dies as a killed process would, or the broker closes its connections. The broker is shared
 * with other builds, so only this node's connections are touched, found by the names they give it.
 */
public final class RabbitNodeFaults {
  private RabbitNodeFaults() {}

  /**
   * Nothing the node holds is settled any more and both connections drop at once, so the broker
   * requeues every unacked message, as when the process is killed. Safe from inside a handler.
   */
  public static void killAsAProcessWould(RabbitWorkQueue queue) {
    queue.abandon();
  }

  /**
   * The broker closes the node's publishing and consuming connections ({@code rabbitmqctl
   * close_connection}); the client sees a server-initiated close and recovers. Answers the
   * connections' broker pids.
   */
  public static List<String> closeConnectionsFromTheBroker(RabbitWorkQueue queue) throws Exception {
    return closeConnectionsNamed(
        List.of(queue.publishingConnectionName(), queue.consumingConnectionName()));
  }

  /** Closes connections by their client-provided name through {@code rabbitmqctl}. */
  static List<String> closeConnectionsNamed(List<String> connectionNames) throws Exception {
    String listing = run("rabbitmqctl", "list_connections", "-q", "pid", "client_properties");
    var closed = new ArrayList<String>();
    for (String line : listing.split("\n")) {
      boolean named = connectionNames.stream()
          .anyMatch(name -> line.contains("\"" + name + "\"") || line.contains(name + "\""));
      if (!named) continue;
      String pid = line.split("\t")[0].trim();
      run("rabbitmqctl", "close_connection", pid, "closed by a Tidings test");
      closed.add(pid);
    }
    return closed;
  }

  private static String run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0)
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    return output;
  }
}
