package dev.tidings.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL primary and a streaming standby of a test's own, on spare ports under a temporary
 * directory, that the test may kill (SIGKILL, as a crashed host) and promote. The shared cluster on
 * 5432 is never touched. Where the server binaries are missing or the pair cannot start, the test
 * fails under CI and is skipped elsewhere, as {@link RealServers} does.
 *
 * <p>The servers run as the {@code postgres} OS user when the JVM runs as root (PostgreSQL refuses
 * root). With {@link Replication#SYNCHRONOUS} a commit returns only once the standby has the WAL,
 * so a promotion loses nothing that was acknowledged; {@link Replication#ASYNCHRONOUS} is the
 * default of a plain install and may lose the last commits.
 */
public final class PostgresStandbyPair implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(30);
  public static final String DATABASE = "tidings";

  public enum Replication {
    SYNCHRONOUS,
    ASYNCHRONOUS
  }

  private final Path binaries;
  private final Path base;
  private final Path primaryDir;
  private final Path standbyDir;
  private final int primaryPort;
  private final int standbyPort;
  private final Replication replication;
  private final boolean asPostgresUser;
  private final Thread killOnExit = Thread.ofPlatform().unstarted(this::destroy);
  private volatile boolean primaryRunning;
  private volatile boolean standbyRunning;
  private volatile boolean promoted;
  private Duration startTime = Duration.ZERO;

  private PostgresStandbyPair(Path binaries, Path base, Replication replication) {
    this.binaries = binaries;
    this.base = base;
    this.primaryDir = base.resolve("primary");
    this.standbyDir = base.resolve("standby");
    this.primaryPort = PrivateRedis.freePort();
    int other = PrivateRedis.freePort();
    while (other == primaryPort) other = PrivateRedis.freePort();
    this.standbyPort = other;
    this.replication = replication;
    this.asPostgresUser = "root".equals(System.getProperty("user.name"));
  }

  /** Starts a primary with a database {@value #DATABASE}, then a standby streaming from it. */
  public static PostgresStandbyPair start(Replication replication) {
    Path binaries = findBinaries();
    long started = System.nanoTime();
    PostgresStandbyPair pair;
    try {
      pair = new PostgresStandbyPair(
          binaries, Files.createTempDirectory("tidings-pg-pair"), replication);
    } catch (IOException e) {
      return unavailable("cannot create a temporary directory: " + e);
    }
    Runtime.getRuntime().addShutdownHook(pair.killOnExit);
    try {
      pair.initPrimary();
      pair.startServer(pair.primaryDir);
      pair.primaryRunning = true;
      pair.createDatabase();
      pair.cloneStandby();
      pair.startServer(pair.standbyDir);
      pair.standbyRunning = true;
      if (replication == Replication.SYNCHRONOUS) pair.requireSynchronousStandby();
      pair.awaitStreaming();
    } catch (RuntimeException e) {
      String logs = pair.logs();
      pair.close();
      return unavailable("the primary and standby did not start: " + e.getMessage() + "\n" + logs);
    }
    pair.startTime = Duration.ofNanos(System.nanoTime() - started);
    System.out.printf(
        "[cluster] PostgreSQL primary and standby up in %.1f s (%s replication, ports %d and %d)%n",
        pair.startTime.toMillis() / 1000.0,
        replication.name().toLowerCase(Locale.ROOT),
        pair.primaryPort,
        pair.standbyPort);
    return pair;
  }

  public Duration startTime() {
    return startTime;
  }

  public int primaryPort() {
    return primaryPort;
  }

  public int standbyPort() {
    return standbyPort;
  }

  /** Both servers, the primary first, finding whichever is primary now. */
  public String multiHostUrl() {
    return "jdbc:postgresql://127.0.0.1:" + primaryPort + ",127.0.0.1:" + standbyPort + "/"
        + DATABASE + "?targetServerType=primary&user=postgres";
  }

  /** The standby alone (read-only until promoted). */
  public String standbyUrl() {
    return "jdbc:postgresql://127.0.0.1:" + standbyPort + "/" + DATABASE + "?user=postgres";
  }

  public String primaryUrl() {
    return "jdbc:postgresql://127.0.0.1:" + primaryPort + "/" + DATABASE + "?user=postgres";
  }

  /**
   * SIGKILL of the primary's postmaster and of every process it started: the server is gone at
   * once, mid-transaction, as when its host dies.
   */
  public synchronized void killPrimary() {
    if (!primaryRunning) throw new IllegalStateException("the primary is not running");
    long postmaster = postmasterPid(primaryDir);
    List<Long> children = childrenOf(postmaster);
    signalKill(postmaster);
    for (long child : children) signalKill(child);
    awaitGone(postmaster);
    primaryRunning = false;
  }

  /** Promotes the standby and waits until it takes writes. */
  public synchronized void promoteStandby() {
    if (!standbyRunning) throw new IllegalStateException("the standby is not running");
    run(List.of(
        binaries.resolve("pg_ctl").toString(),
        "promote",
        "-w",
        "-t",
        Long.toString(WAIT.toSeconds()),
        "-D",
        standbyDir.toString()));
    promoted = true;
  }

  /** Starts the primary again (only before a promotion: afterwards there would be two primaries). */
  public synchronized void restartPrimary() {
    if (primaryRunning) throw new IllegalStateException("the primary is running");
    if (promoted) throw new IllegalStateException("the standby was promoted: two primaries");
    startServer(primaryDir);
    primaryRunning = true;
  }

  /** SIGKILL of the standby (a synchronous primary then waits for it on every commit). */
  public synchronized void killStandby() {
    if (!standbyRunning) throw new IllegalStateException("the standby is not running");
    long postmaster = postmasterPid(standbyDir);
    List<Long> children = childrenOf(postmaster);
    signalKill(postmaster);
    for (long child : children) signalKill(child);
    awaitGone(postmaster);
    standbyRunning = false;
  }

  public synchronized void restartStandby() {
    if (standbyRunning) throw new IllegalStateException("the standby is running");
    startServer(standbyDir);
    standbyRunning = true;
  }

  @Override
  public void close() {
    destroy();
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException exiting) {
      // called from the hook itself
    }
  }

  private synchronized void destroy() {
    for (Path dir : List.of(primaryDir, standbyDir)) {
      try {
        if (Files.exists(dir.resolve("postmaster.pid"))) {
          long postmaster = postmasterPid(dir);
          List<Long> children = childrenOf(postmaster);
          signalKill(postmaster);
          for (long child : children) signalKill(child);
          awaitGone(postmaster);
        }
      } catch (RuntimeException e) {
        System.err.println("[cluster] stopping " + dir + ": " + e.getMessage());
      }
    }
    primaryRunning = false;
    standbyRunning = false;
    deleteTree(base);
  }

  private void initPrimary() {
    chownToPostgres(base);
    run(List.of(
        binaries.resolve("initdb").toString(),
        "-D",
        primaryDir.toString(),
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync"));
    var settings = new ArrayList<>(List.of(
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = '" + base + "'",
        "wal_level = replica",
        "max_wal_senders = 5",
        "wal_keep_size = '128MB'",
        "hot_standby = on",
        "max_connections = 120",
        "shared_buffers = '32MB'",
        "fsync = off", // the servers are killed, never their host: the page cache keeps every write
        "full_page_writes = off",
        "logging_collector = off",
        "wal_receiver_status_interval = '1s'",
        "hot_standby_feedback = on"));
    settings.add("port = " + primaryPort);
    append(primaryDir.resolve("postgresql.conf"), settings);
    append(
        primaryDir.resolve("pg_hba.conf"),
        List.of("host replication all 127.0.0.1/32 trust", "host all all 127.0.0.1/32 trust"));
  }

  private void cloneStandby() {
    run(List.of(
        binaries.resolve("pg_basebackup").toString(),
        "-h",
        "127.0.0.1",
        "-p",
        Integer.toString(primaryPort),
        "-U",
        "postgres",
        "-D",
        standbyDir.toString(),
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
        "--no-sync"));
    // The standby's copy of postgresql.conf is the primary's: later lines win. Once promoted it
    // must not wait for a standby of its own, or every commit would hang.
    append(
        standbyDir.resolve("postgresql.conf"),
        List.of("port = " + standbyPort, "synchronous_standby_names = ''"));
  }

  private void startServer(Path dir) {
    run(List.of(
        binaries.resolve("pg_ctl").toString(),
        "start",
        "-w",
        "-t",
        Long.toString(WAIT.toSeconds()),
        "-D",
        dir.toString(),
        "-l",
        dir.resolveSibling(dir.getFileName() + ".log").toString()));
  }

  private void createDatabase() {
    try (Connection connection = DriverManager.getConnection(
            "jdbc:postgresql://127.0.0.1:" + primaryPort + "/postgres?user=postgres");
        var statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + DATABASE);
    } catch (SQLException e) {
      throw new IllegalStateException("CREATE DATABASE on the primary: " + e.getMessage(), e);
    }
  }

  /**
   * From now on a commit on the primary returns once the standby has flushed its WAL. Set only now,
   * on the primary alone: before, the primary's own CREATE DATABASE would have waited for a standby
   * not there yet, and the standby's copy of the settings must not ask for one of its own.
   */
  private void requireSynchronousStandby() {
    try (Connection connection = DriverManager.getConnection(primaryUrl());
        var statement = connection.createStatement()) {
      statement.execute("ALTER SYSTEM SET synchronous_standby_names = '*'");
      statement.execute("ALTER SYSTEM SET synchronous_commit = 'on'");
      statement.execute("SELECT pg_reload_conf()");
    } catch (SQLException e) {
      throw new IllegalStateException("synchronous replication: " + e.getMessage(), e);
    }
  }

  /** Until the primary sees its standby streaming (and, if synchronous, as its synchronous one). */
  private void awaitStreaming() {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String wanted = replication == Replication.SYNCHRONOUS ? "sync" : "async";
    while (true) {
      try (Connection connection = DriverManager.getConnection(primaryUrl());
          var statement = connection.createStatement();
          var rows = statement.executeQuery(
              "SELECT sync_state FROM pg_stat_replication WHERE state = 'streaming'")) {
        if (rows.next() && wanted.equals(rows.getString(1))) return;
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) throw new IllegalStateException(e.getMessage(), e);
      }
      if (System.nanoTime() > deadline)
        throw new IllegalStateException("the standby is not streaming after " + WAIT);
      pause(Duration.ofMillis(100));
    }
  }

  private void run(List<String> command) {
    var full = new ArrayList<String>();
    if (asPostgresUser) full.addAll(List.of("runuser", "-u", "postgres", "--"));
    full.addAll(command);
    try {
      Process process = new ProcessBuilder(full)
          .directory(base.toFile())
          .redirectErrorStream(true)
          .start();
      process.getOutputStream().close();
      // pg_ctl start leaves the postmaster holding the output pipe open: read only until it exits
      var output = new StringBuilder();
      Thread reader = Thread.ofVirtual().start(() -> {
        try {
          output.append(
              new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException ignored) {
          // the output is only for the failure message
        }
      });
      if (!process.waitFor(WAIT.toSeconds() + 15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish");
      }
      reader.join(Duration.ofSeconds(1));
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " exited " + process.exitValue() + ": " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void chownToPostgres(Path path) {
    if (!asPostgresUser) return;
    try {
      Process process = new ProcessBuilder("chown", "postgres:postgres", path.toString())
          .redirectErrorStream(true)
          .start();
      if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0)
        throw new IllegalStateException("chown postgres " + path + " failed");
    } catch (IOException e) {
      throw new IllegalStateException("chown: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static long postmasterPid(Path dir) {
    try {
      return Long.parseLong(
          Files.readAllLines(dir.resolve("postmaster.pid")).get(0).strip());
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("no postmaster.pid in " + dir + ": " + e.getMessage(), e);
    }
  }

  private static List<Long> childrenOf(long pid) {
    return ProcessHandle.of(pid)
        .map(handle -> handle.children().map(ProcessHandle::pid).toList())
        .orElse(List.of());
  }

  private static void signalKill(long pid) {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  private static void awaitGone(long pid) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      if (System.nanoTime() > deadline)
        throw new IllegalStateException("postmaster " + pid + " survived SIGKILL");
      pause(Duration.ofMillis(20));
    }
  }

  private String logs() {
    var text = new StringBuilder();
    for (String name : List.of("primary.log", "standby.log")) {
      try {
        Path log = base.resolve(name);
        if (Files.exists(log))
          text.append("--- ").append(name).append('\n').append(Files.readString(log));
      } catch (IOException ignored) {
        // only for the failure message
      }
    }
    return text.toString();
  }

  private static void append(Path file, List<String> lines) {
    try {
      Files.writeString(file, "\n" + String.join("\n", lines) + "\n", StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) return;
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.deleteIfExists(path);
        } catch (IOException ignored) {
          // a leftover temp file is harmless
        }
      });
    } catch (IOException ignored) {
      // as above
    }
  }

  private static Path findBinaries() {
    String configured = System.getenv("TIDINGS_TEST_PG_BIN");
    List<Path> candidates = configured != null
        ? List.of(Path.of(configured))
        : List.of(Path.of("/usr/lib/postgresql/15/bin"), Path.of("/usr/lib/postgresql/16/bin"));
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate.resolve("initdb"))
          && Files.isExecutable(candidate.resolve("pg_basebackup"))) return candidate;
    }
    return unavailable(
        "initdb and pg_basebackup not found in " + candidates + " (set TIDINGS_TEST_PG_BIN)");
  }

  private static <T> T unavailable(String why) {
    String message = "a private PostgreSQL primary and standby cannot run: " + why;
    if (RealServers.inCi())
      Assertions.fail(message + " (CI=true: a real-server test must run, so this is a failure)");
    System.err.println("\n*** SKIPPED: " + message + " ***\n");
    Assumptions.abort(message);
    throw new AssertionError("unreachable");
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
