package dev.tidings.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A Tidings server node as a separate process: {@code java -jar target/tidings.jar serve}
 * (in the tools' tests, {@code target/tidings-tools.jar}) with the
 * given environment, on a free port, its output in a log file under its data directory. Closing it
 * destroys the process (and its children), forcibly after a few seconds; a JVM that ends early kills it
 * through a shutdown hook, so no node outlives the test.
 */
public final class NodeProcess implements AutoCloseable {
  /** The jar the module under test builds: the tools' (engine and tools) or the engine's. */
  private static final Path JAR = Files.isRegularFile(Path.of("target", "tidings-tools.jar"))
      ? Path.of("target", "tidings-tools.jar")
      : Path.of("target", "tidings.jar");

  private final Process process;
  private final int port;
  private final Path log;
  private final Thread killOnExit;

  private NodeProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.killOnExit = Thread.ofPlatform().unstarted(this::destroy);
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /** Starts a node; {@code environment} adds to (and overrides) TIDINGS_PORT and TIDINGS_DATA_DIR. */
  public static NodeProcess start(Map<String, String> environment) throws IOException {
    return start("serve", List.of(), environment);
  }

  /**
   * Starts {@code tidings COMMAND} (serve, worker) with extra JVM options (system properties) and
   * {@code environment} as {@link #start(Map)} does.
   */
  public static NodeProcess start(
      String command, List<String> jvmOptions, Map<String, String> environment) throws IOException {
    return start(List.of(command), jvmOptions, environment);
  }

  /** Starts {@code tidings} with a whole command line (e.g. {@code demo --no-engagement}). */
  public static NodeProcess start(
      List<String> commandLine, List<String> jvmOptions, Map<String, String> environment)
      throws IOException {
    return start(false, commandLine, jvmOptions, environment);
  }

  /**
   * As {@link #start(java.util.List, java.util.List, Map)}, as the foreground job of a terminal: the
   * leader of a process group of its own, so that {@link #signalGroup} reaches it and every child it
   * did not move out of its group, as Ctrl-C does.
   */
  public static NodeProcess startAsTerminalJob(
      List<String> commandLine, List<String> jvmOptions, Map<String, String> environment)
      throws IOException {
    return start(true, commandLine, jvmOptions, environment);
  }

  private static NodeProcess start(
      boolean ownGroup,
      List<String> commandLine,
      List<String> jvmOptions,
      Map<String, String> environment)
      throws IOException {
    if (!Files.isRegularFile(JAR))
      throw new IllegalStateException(
          JAR.toAbsolutePath() + " is missing: run the tests with verify");
    int port = PrivateRedis.freePort();
    Path dataDir = Files.createTempDirectory("tidings-node-");
    Path log = dataDir.resolve("node.log");
    var arguments = new ArrayList<String>();
    // setsid execs the JVM in place (a child is never a group leader), so the pid stays the node's
    if (ownGroup) arguments.add("setsid");
    arguments.add(java());
    arguments.add("-Xmx256m");
    arguments.addAll(jvmOptions);
    arguments.addAll(List.of("-jar", JAR.toString()));
    arguments.addAll(commandLine);
    var builder =
        new ProcessBuilder(arguments).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith("TIDINGS_"));
    env.put("TIDINGS_PORT", Integer.toString(port));
    env.put("TIDINGS_DATA_DIR", dataDir.toString());
    env.put("TIDINGS_LOG_FORMAT", "text");
    env.putAll(environment);
    return new NodeProcess(builder.start(), port, log);
  }

  private static String java() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** The node's TIDINGS_DATA_DIR (outbox, secrets, embedded database). */
  public Path dataDir() {
    return log.getParent();
  }

  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** Waits until GET /health answers 200; fails with the node's log otherwise. */
  public void awaitHealthy(HttpClient http, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive())
        throw new IllegalStateException("the node on " + port + " exited:\n" + log());
      try {
        var answer = http.send(
            HttpRequest.newBuilder(uri("/health"))
                .timeout(Duration.ofSeconds(2))
                .build(),
            HttpResponse.BodyHandlers.discarding());
        if (answer.statusCode() == 200) return;
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException(
        "the node on " + port + " was not healthy in " + wait + ":\n" + log());
  }

  public long pid() {
    return process.pid();
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** Sends a signal such as KILL, STOP or CONT, as an operator's {@code kill -SIGNAL pid} would. */
  public void signal(String signal) throws IOException, InterruptedException {
    var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
        .redirectErrorStream(true)
        .start();
    if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0)
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    if (signal.equals("KILL")) process.waitFor(10, TimeUnit.SECONDS);
  }

  /** Sends a signal to the node's whole process group, as a terminal's Ctrl-C (INT) does. */
  public void signalGroup(String signal) throws IOException, InterruptedException {
    var kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + process.pid())
        .redirectErrorStream(true)
        .start();
    if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0)
      throw new IllegalStateException("kill -" + signal + " -- -" + process.pid() + " failed");
  }

  /** Waits for the process to end; its exit status, or empty when it is still running. */
  public OptionalInt awaitExit(Duration wait) throws InterruptedException {
    return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)
        ? OptionalInt.of(process.exitValue())
        : OptionalInt.empty();
  }

  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /**
   * Stops the node as an operator would (SIGTERM: it drains within its grace, up to 10 s by default,
   * and stops its embedded database last), and kills it only when it has not stopped in 30 s. An
   * embedded database runs in a session of its own, outside the node's descendants: one a killed node
   * left behind is stopped by its data directory.
   */
  private void destroy() {
    if (process.isAlive()) {
      try {
        signal("CONT"); // a node a test froze would never see the TERM below
      } catch (IOException | IllegalStateException e) {
        // gone meanwhile
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    String database = dataDir().resolve("pg").toString();
    ProcessHandle.allProcesses()
        .filter(other -> other.info().commandLine().orElse("").contains(database))
        .forEach(ProcessHandle::destroy);
  }

  @Override
  public void close() {
    destroy();
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }
}
