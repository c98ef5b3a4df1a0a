package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.testing.StartsServers;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node killed with SIGKILL leaves its embedded PostgreSQL running; the next start on the same data
 * directory stops that server and starts on the data it kept, while a server whose node still runs is
 * never touched.
 */
@StartsServers
@Timeout(180)
class OrphanedPostmasterTest {
  @TempDir
  Path dataDirectory;

  /** A node's stand-in: starts the embedded server, writes a row, says so, and waits to be killed. */
  public static final class Owner {
    public static void main(String[] arguments) throws Exception {
      var server = EmbeddedPostgresServer.start(Path.of(arguments[0]));
      try (var connection = DriverManager.getConnection(server.jdbcUrl());
          var statement = connection.createStatement()) {
        statement.execute("CREATE TABLE kept (note text)");
        statement.execute("INSERT INTO kept VALUES ('written before the kill')");
      }
      System.out.println("ready");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  private Process startOwner() throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    var owner = new ProcessBuilder(
            java,
            "-Xmx128m",
            "-cp",
            System.getProperty("java.class.path"),
            Owner.class.getName(),
            dataDirectory.toString())
        .redirectErrorStream(true)
        .start();
    var lines =
        new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8));
    var said = new StringBuilder();
    for (String line; (line = lines.readLine()) != null; ) {
      if (line.equals("ready")) return owner;
      said.append(line).append('\n');
    }
    throw new AssertionError("the owner ended before its server was ready:\n" + said);
  }

  @Test
  void a_server_left_by_a_killed_node_is_stopped_and_the_next_start_finds_the_data()
      throws Exception {
    Process owner = startOwner();
    var left = OrphanedPostmaster.runningServer(dataDirectory).orElseThrow();
    owner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    assertThat(left.isAlive()).as("the killed node's server outlives it").isTrue();

    try (var server = EmbeddedPostgresServer.start(dataDirectory);
        var connection = DriverManager.getConnection(server.jdbcUrl());
        var statement = connection.createStatement();
        var rows = statement.executeQuery("SELECT note FROM kept")) {
      assertThat(left.isAlive()).isFalse();
      assertThat(rows.next()).isTrue();
      assertThat(rows.getString(1)).isEqualTo("written before the kill");
    }
  }

  @Test
  void a_server_whose_node_still_runs_is_refused_and_left_running() throws Exception {
    Process owner = startOwner();
    try {
      var running = OrphanedPostmaster.runningServer(dataDirectory).orElseThrow();
      assertThatThrownBy(() -> OrphanedPostmaster.stopIfLeft(dataDirectory))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("another process runs the embedded PostgreSQL")
          .hasMessageContaining("pid " + running.pid());
      assertThat(running.isAlive()).isTrue();
    } finally {
      // the owner dies without stopping its server: the next start cleans up, as in production
      owner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      EmbeddedPostgresServer.start(dataDirectory).close();
    }
  }

  @Test
  void no_pid_file_or_a_stale_one_is_nothing_to_stop() throws Exception {
    assertThat(OrphanedPostmaster.runningServer(dataDirectory)).isEmpty();
    Files.write(
        dataDirectory.resolve("postmaster.pid"), List.of("999999999", dataDirectory.toString()));
    assertThat(OrphanedPostmaster.runningServer(dataDirectory)).isEmpty();
    Files.write(
        dataDirectory.resolve("postmaster.pid"),
        List.of(Long.toString(ProcessHandle.current().pid()), dataDirectory.toString()));
    assertThat(OrphanedPostmaster.runningServer(dataDirectory))
        .as("a live process that is not PostgreSQL")
        .isEmpty();
  }
}
