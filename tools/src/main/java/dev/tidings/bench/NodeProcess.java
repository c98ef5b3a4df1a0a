package dev.tidings.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Tidings node in a process of its own, as the launcher starts it ({@code java OPTIONS -jar JAR
 * serve}) on an embedded PostgreSQL under {@code dataDirectory}, its output in {@code log}. The
 * environment carries no {@code TIDINGS_} setting of the caller's: the node uses only the embedded
 * defaults, the bench's secret and API key.
 */
public final class NodeProcess implements AutoCloseable {
  /** The JVM options {@code ./tidings} and {@code bin/tidings} start every command with. */
  public static final List<String> LAUNCHER_JVM_OPTIONS = List.of(
      "-XX:+UseG1GC",
      "-XX:MaxRAMPercentage=25",
      "-XX:+ExitOnOutOfMemoryError",
      "--enable-native-access=ALL-UNNAMED");

  private final Process process;
  private final int port;
  private final long startedNanos;
  private final Path log;

  private NodeProcess(Process process, int port, long startedNanos, Path log) {
    this.process = process;
    this.port = port;
    this.startedNanos = startedNanos;
    this.log = log;
  }

  /** What to start: the JVM's options (the launcher's, plus any AOT option) and the command. */
  public record Launch(Path jar, List<String> jvmOptions, List<String> command) {
    public Launch {
      jvmOptions = List.copyOf(jvmOptions);
      command = List.copyOf(command);
    }
  }

  public static NodeProcess start(Launch launch, Path dataDirectory, Path log) {
    int port = OpenBurstBench.freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(launch.jvmOptions());
    command.addAll(List.of("-jar", launch.jar().toString()));
    command.addAll(launch.command());
    var builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .directory(dataDirectory.toFile());
    Map<String, String> environment = builder.environment();
    environment.keySet().removeIf(name -> name.startsWith("TIDINGS_"));
    environment.remove("JAVA_TOOL_OPTIONS");
    environment.put("TIDINGS_PORT", Integer.toString(port));
    environment.put("TIDINGS_DATA_DIR", dataDirectory.toString());
    environment.put("TIDINGS_SECRET", OpenBurstBench.SECRET);
    environment.put("TIDINGS_API_KEY", OpenBurstBench.API_KEY);
    environment.put("TIDINGS_LOG_FORMAT", "json");
    long started = System.nanoTime();
    try {
      return new NodeProcess(builder.start(), port, started, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + String.join(" ", command), e);
    }
  }

  /**
   * The CPU time the node's JVM has used so far (user and system, from {@code /proc/PID/stat}, in the
   * kernel's clock ticks of 1/100 s), or -1 where there is no such file. The embedded PostgreSQL's
   * processes are not the JVM's and are not counted.
   */
  public double cpuSeconds() {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      // the command name, in parentheses, may hold spaces: the fields start after its closing one
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    } catch (IOException | RuntimeException gone) {
      return -1;
    }
  }

  public int port() {
    return port;
  }

  /** When the process was started, on {@link System#nanoTime()}'s scale. */
  public long startedNanos() {
    return startedNanos;
  }

  /**
   * Waits until the node accepts a connection and answers {@code GET /health} with 200, polling every
   * 20 ms (so the first answer is seen within 20 ms of when it could be); returns that moment.
   */
  public long awaitFirstAnswer(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive())
        throw new IllegalStateException(
            "the node exited with " + process.exitValue() + " before it answered; see " + log);
      if (healthy()) return System.nanoTime();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    throw new IllegalStateException("the node did not answer within " + timeout + "; see " + log);
  }

  private boolean healthy() {
    try (var connection = new KeepAliveConnection("127.0.0.1", port, 2_000)) {
      connection.send("/health");
      return connection.read().status() == 200;
    } catch (IOException notYet) {
      return false;
    }
  }

  /**
   * Stops the node as systemd does (SIGTERM) and waits up to {@code timeout} for it to exit (a JVM
   * writing an AOT cache takes a while); kills it after that. Returns its exit code.
   */
  public int stop(Duration timeout) {
    process.destroy();
    try {
      if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) return process.exitValue();
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      throw new IllegalStateException("the node did not stop within " + timeout + "; see " + log);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) stop(Duration.ofSeconds(30));
  }
}
