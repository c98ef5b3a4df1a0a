package dev.tidings.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A RabbitMQ cluster of three nodes of its own on this machine, for tests that lose a node: one per
 * test JVM, started on first use and killed when the JVM exits. The machine's own broker
 * ({@code rabbit@localhost} on 5672) is never touched: each node has its own name, AMQP and
 * distribution ports on spare ports, database, logs, configuration, no plugins, and a home whose
 * Erlang cookie the nodes and {@code rabbitmqctl} share.
 *
 * <p>Where RabbitMQ is not installed or the cluster does not form, a test fails under CI and is
 * skipped elsewhere, as {@link RealServers} does.
 */
public final class RabbitCluster {
  public static final int SIZE = 3;
  private static final Path BIN = Path.of("/usr/lib/rabbitmq/bin");
  private static final Duration BOOT_WAIT = Duration.ofSeconds(90);
  private static final String COOKIE = "TIDINGSTESTCLUSTERCOOKIE";

  private static RabbitCluster started;
  private static String failure;

  /** One node: {@code name} is its Erlang node name, {@code pid} its beam.smp process while it runs. */
  private static final class Node {
    final int index;
    final String name;
    final int amqpPort;
    final int distPort;
    final Path home;
    long pid = -1;

    Node(int index, String name, int amqpPort, int distPort, Path home) {
      this.index = index;
      this.name = name;
      this.amqpPort = amqpPort;
      this.distPort = distPort;
      this.home = home;
    }
  }

  private final Path dir;
  private final List<Node> nodes = new ArrayList<>();
  private final Duration startTime;

  private RabbitCluster(Path dir) throws IOException, InterruptedException {
    this.dir = dir;
    long began = System.nanoTime();
    String prefix = "tidings" + ProcessHandle.current().pid() + "n";
    for (int i = 1; i <= SIZE; i++) {
      Path home = Files.createDirectories(dir.resolve("n" + i));
      nodes.add(new Node(i, prefix + i + "@localhost", freePort(), freePort(), home));
    }
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(this::destroy));
    for (Node node : nodes) configure(node);
    for (Node node : nodes) launch(node);
    for (Node node : nodes) awaitListening(node);
    String seed = nodes.getFirst().name;
    for (Node node : nodes.subList(1, nodes.size())) {
      // what rabbitmqctl stop_app, join_cluster and start_app do, in one short-lived Erlang node:
      // the CLI takes several seconds per call on a busy machine
      eval("ok = rpc:call('" + node.name + "', rabbit, stop, []), "
          + "J = rpc:call('" + node.name + "', rabbit_mnesia, join_cluster, ['" + seed
          + "', disc]), "
          + "ok = rpc:call('" + node.name + "', rabbit, start, []), J");
    }
    for (Node node : nodes) node.pid = pidOf(node);
    awaitRunning(SIZE);
    startTime = Duration.ofNanos(System.nanoTime() - began);
    System.out.printf(
        "[cluster] RabbitMQ cluster of %d up in %.1f s (%s)%n",
        SIZE, startTime.toMillis() / 1000.0, amqpUrl());
  }

  /** The cluster of this JVM, started on the first call; fails under CI, skips elsewhere, when it cannot start. */
  public static synchronized RabbitCluster get() {
    if (started != null) return started;
    if (failure == null) {
      Path dir = null;
      try {
        if (!Files.isExecutable(BIN.resolve("rabbitmq-server")))
          throw new IllegalStateException("RabbitMQ is not installed (" + BIN + ")");
        dir = Files.createTempDirectory("tidings-rabbit-cluster");
        started = new RabbitCluster(dir);
        return started;
      } catch (Exception e) {
        if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        failure = "cannot start a RabbitMQ cluster of " + SIZE + " nodes: " + e.getMessage()
            + (dir == null ? "" : " (logs under " + dir + ")");
      }
    }
    if (RealServers.inCi()) Assertions.fail(failure + " (CI=true: this is a failure)");
    System.err.println("\n*** SKIPPED: " + failure + " ***\n");
    Assumptions.abort(failure);
    throw new AssertionError("unreachable");
  }

  public Duration startTime() {
    return startTime;
  }

  /** Every node, as {@code amqp://guest:guest@127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3}. */
  public URI amqpUrl() {
    var hosts = new StringBuilder();
    for (Node node : nodes) {
      if (!hosts.isEmpty()) hosts.append(',');
      hosts.append("127.0.0.1:").append(node.amqpPort);
    }
    return URI.create("amqp://guest:guest@" + hosts);
  }

  /** Node {@code index} (1 to 3) alone. */
  public URI nodeUrl(int index) {
    return URI.create("amqp://guest:guest@127.0.0.1:" + node(index).amqpPort);
  }

  public int amqpPort(int index) {
    return node(index).amqpPort;
  }

  public String nodeName(int index) {
    return node(index).name;
  }

  /** The node (1 to 3) whose AMQP port is {@code port}, or 0. */
  public int indexOfPort(int port) {
    return nodes.stream()
        .filter(node -> node.amqpPort == port)
        .mapToInt(node -> node.index)
        .findFirst()
        .orElse(0);
  }

  /** SIGKILL to node {@code index}'s beam.smp: it vanishes as a crashed machine's would. */
  public synchronized void kill(int index) {
    Node node = node(index);
    if (node.pid < 0) throw new IllegalStateException(node.name + " is not running");
    ProcessHandle.of(node.pid).ifPresent(process -> {
      process.destroyForcibly();
      process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
    });
    node.pid = -1;
  }

  /** Starts node {@code index} again, and waits until it runs in the cluster with the others. */
  public synchronized void start(int index) {
    Node node = node(index);
    if (node.pid >= 0) throw new IllegalStateException(node.name + " is running");
    try {
      launch(node);
      awaitListening(node);
      node.pid = pidOf(node);
      awaitRunning((int) nodes.stream().filter(each -> each.pid >= 0).count());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The node (1 to 3) leading quorum queue {@code queue} (virtual host {@code /}); 0 when not known. */
  public synchronized int leaderOf(String queue) throws IOException, InterruptedException {
    Node asked = running();
    String out = eval("{ok, Q} = rpc:call('" + asked.name + "', rabbit_amqqueue, lookup, "
            + "[{resource, <<\"/\">>, queue, <<\"" + queue + "\">>}]), "
            + "element(2, rpc:call('" + asked.name + "', amqqueue, get_pid, [Q]))")
        .strip();
    for (Node node : nodes) if (node.name.equals(out)) return node.index;
    return 0;
  }

  private Node running() {
    return nodes.stream().filter(node -> node.pid >= 0).findFirst().orElseThrow();
  }

  private Node node(int index) {
    if (index < 1 || index > SIZE) throw new IllegalArgumentException("no node " + index);
    return nodes.get(index - 1);
  }

  private static void configure(Node node) throws IOException {
    Path cookie = node.home.resolve(".erlang.cookie");
    Files.writeString(cookie, COOKIE);
    cookie.toFile().setReadable(false, false);
    cookie.toFile().setReadable(true, true);
    cookie.toFile().setWritable(false, false);
    Files.createDirectories(node.home.resolve("mnesia"));
    Files.createDirectories(node.home.resolve("log"));
    Files.writeString(
        node.home.resolve("rabbitmq.conf"),
        String.join(
            "\n",
            "listeners.tcp.default = 127.0.0.1:" + node.amqpPort,
            "loopback_users = none",
            // three nodes share a small machine with other servers: block publishers early rather
            // than let each node take 40% of the memory
            "vm_memory_high_watermark.absolute = 768MiB",
            "disk_free_limit.absolute = 50MB",
            ""));
    Files.writeString(node.home.resolve("enabled_plugins"), "[].\n");
    Files.writeString(node.home.resolve("rabbitmq-env.conf"), "");
  }

  private Map<String, String> environment(Node node) {
    return Map.of(
        "HOME", node.home.toString(),
        "RABBITMQ_CONF_ENV_FILE", node.home.resolve("rabbitmq-env.conf").toString(),
        "RABBITMQ_NODENAME", node.name,
        "RABBITMQ_NODE_PORT", Integer.toString(node.amqpPort),
        "RABBITMQ_DIST_PORT", Integer.toString(node.distPort),
        "RABBITMQ_MNESIA_BASE", node.home.resolve("mnesia").toString(),
        "RABBITMQ_LOG_BASE", node.home.resolve("log").toString(),
        "RABBITMQ_CONFIG_FILE", node.home.resolve("rabbitmq.conf").toString(),
        "RABBITMQ_ENABLED_PLUGINS_FILE", node.home.resolve("enabled_plugins").toString());
  }

  private void launch(Node node) throws IOException, InterruptedException {
    run(node, BIN.resolve("rabbitmq-server").toString(), "-detached");
  }

  private static void awaitListening(Node node) throws InterruptedException {
    long deadline = System.nanoTime() + BOOT_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      try (var socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", node.amqpPort), 500);
        return;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException(node.name + " did not listen on " + node.amqpPort + " within "
        + BOOT_WAIT.toSeconds() + " s");
  }

  private long pidOf(Node node) throws IOException, InterruptedException {
    String out = eval("rpc:call('" + node.name + "', os, getpid, [])").trim().replace("\"", "");
    try {
      return Long.parseLong(out);
    } catch (NumberFormatException e) {
      throw new IllegalStateException("no pid from " + node.name + ": " + out);
    }
  }

  /** Waits until the cluster reports {@code running} running nodes. */
  private void awaitRunning(int running) throws IOException, InterruptedException {
    Node asked = running();
    long deadline = System.nanoTime() + BOOT_WAIT.toNanos();
    String count = "";
    while (System.nanoTime() < deadline) {
      count = eval("length(rpc:call('" + asked.name + "', rabbit_nodes, all_running, []))")
          .strip();
      if (count.equals(Integer.toString(running))) return;
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "the cluster did not show " + running + " running nodes but " + count);
  }

  private static int evals;

  /**
   * Evaluates the Erlang {@code expression} on a short-lived node of the cluster's cookie (calling
   * the cluster's nodes by rpc), and returns what it printed: the value, {@code ~p} for terms,
   * {@code ~s} for strings.
   */
  private String eval(String expression) throws IOException, InterruptedException {
    String name = "tidingsctl" + ProcessHandle.current().pid() + "x" + (++evals);
    return run(
        nodes.getFirst(),
        "erl",
        "-noshell",
        "-sname",
        name,
        "-setcookie",
        COOKIE,
        "-eval",
        "try V = begin " + expression + " end, "
            + "io:format(case io_lib:printable_list(V) of true -> \"~s~n\"; false -> \"~p~n\" end, [V]), "
            + "halt() catch C:E -> io:format(\"failed: ~p:~p~n\", [C, E]), halt(1) end.");
  }

  private String run(Node node, String... command) throws IOException, InterruptedException {
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment(node));
    builder.directory(node.home.toFile());
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(BOOT_WAIT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " did not finish");
    }
    if (process.exitValue() != 0)
      throw new IllegalStateException(
          String.join(" ", command) + " failed (" + process.exitValue() + "): " + out.strip());
    return out;
  }

  /** At JVM exit: every node killed (also one whose pid was not known yet), its files removed. */
  private synchronized void destroy() {
    for (Node node : nodes) {
      beamsOf(node).forEach(process -> {
        process.destroyForcibly();
        process
            .onExit()
            .orTimeout(10, TimeUnit.SECONDS)
            .exceptionally(e -> process)
            .join();
      });
      node.pid = -1;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not remove " + dir + ": " + e);
    }
  }

  /** The beam.smp processes started with this node's name, found by their environment. */
  private static List<ProcessHandle> beamsOf(Node node) {
    var found = new ArrayList<ProcessHandle>();
    ProcessHandle.allProcesses().forEach(process -> {
      if (node.pid == process.pid()) {
        found.add(process);
        return;
      }
      if (!process.info().command().orElse("").endsWith("beam.smp")) return;
      try {
        String environment = Files.readString(
            Path.of("/proc", Long.toString(process.pid()), "environ"), StandardCharsets.ISO_8859_1);
        if (environment.contains("RABBITMQ_NODENAME=" + node.name + "\0")) found.add(process);
      } catch (IOException | UncheckedIOException gone) {
        // ended meanwhile, or not ours to read
      }
    });
    return found;
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }
}
