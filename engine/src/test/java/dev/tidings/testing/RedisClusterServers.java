package dev.tidings.testing;

import io.lettuce.core.cluster.SlotHash;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A Redis Cluster of six {@code redis-server} processes (three primaries, a replica each) on spare
 * ports, without persistence, one per test JVM: started on first use, killed with the JVM (a shutdown
 * hook), its node files in a temporary directory that goes with it. The shared Redis on 6379 is never
 * touched. A test may SIGKILL the primary that owns a key and start the node again (it rejoins, as a
 * replica once its replica was promoted); {@link #get()} hands the next test a cluster whose six nodes
 * run and whose state is ok again. Where redis-server or redis-cli is missing, or the cluster does not
 * form, the test fails under CI and is skipped elsewhere, as {@link RealServers} does.
 */
public final class RedisClusterServers {
  private static final int NODES = 6;
  /** Small, so that a killed primary's replica is promoted within a second or two. */
  public static final Duration NODE_TIMEOUT = Duration.ofMillis(1_000);

  private static final Duration START_WAIT = Duration.ofSeconds(30);
  private static @Nullable RedisClusterServers running;
  private static @Nullable String failedToStart;

  private final String server;
  private final String cli;
  private final Path directory;
  private final Map<Integer, Process> nodes = new LinkedHashMap<>();

  private RedisClusterServers(String server, String cli, Path directory) {
    this.server = server;
    this.cli = cli;
    this.directory = directory;
  }

  /** The JVM's cluster, started on the first call; every node running and the state ok. */
  public static synchronized RedisClusterServers get() {
    if (failedToStart != null) unavailable(failedToStart);
    if (running == null) {
      String server = PrivateRedis.findOnPath("redis-server");
      String cli = PrivateRedis.findOnPath("redis-cli");
      try {
        var cluster = new RedisClusterServers(
            server, cli, Files.createTempDirectory("tidings-redis-cluster"));
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(cluster::destroy));
        cluster.start();
        running = cluster;
      } catch (IOException | RuntimeException e) {
        failedToStart = "the Redis Cluster of " + NODES + " did not start: " + e.getMessage();
        unavailable(failedToStart);
      }
    }
    RedisClusterServers cluster = running;
    cluster.heal();
    return cluster;
  }

  private static void unavailable(String message) {
    if (RealServers.inCi())
      Assertions.fail(message + " (CI=true: a real-server test must run, so this is a failure)");
    System.err.println("\n*** SKIPPED: " + message + ". ***\n");
    Assumptions.abort(message);
  }

  /** {@code redis-cluster://} with every node as a seed. */
  public URI uri() {
    StringBuilder seeds = new StringBuilder();
    for (int port : ports()) {
      if (!seeds.isEmpty()) seeds.append(',');
      seeds.append("127.0.0.1:").append(port);
    }
    return URI.create("redis-cluster://" + seeds);
  }

  public synchronized List<Integer> ports() {
    return List.copyOf(nodes.keySet());
  }

  private void start() throws IOException {
    long started = System.nanoTime();
    for (int i = 0; i < NODES; i++) {
      int port = PrivateRedis.freePort();
      nodes.put(port, null);
      launch(port);
    }
    List<String> create = new ArrayList<>(List.of(cli, "--cluster", "create"));
    for (int port : nodes.keySet()) create.add("127.0.0.1:" + port);
    create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
    Path createLog = directory.resolve("create.log");
    Process creating = new ProcessBuilder(create)
        .redirectErrorStream(true)
        .redirectOutput(createLog.toFile())
        .start();
    try {
      if (!creating.waitFor(START_WAIT.toSeconds(), TimeUnit.SECONDS)
          || creating.exitValue() != 0) {
        creating.destroyForcibly();
        throw new IllegalStateException("redis-cli --cluster create failed:\n" + read(createLog));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    awaitOk();
    System.out.printf(
        Locale.ROOT,
        "[cluster] Redis Cluster of %d up in %.1f s (ports %s)%n",
        NODES,
        (System.nanoTime() - started) / 1e9,
        nodes.keySet());
  }

  private void launch(int port) {
    Path log = directory.resolve("node-" + port + ".log");
    try {
      Process process = new ProcessBuilder(
              server,
              "--port",
              Integer.toString(port),
              "--bind",
              "127.0.0.1",
              "--cluster-enabled",
              "yes",
              "--cluster-config-file",
              directory.resolve("nodes-" + port + ".conf").toString(),
              "--cluster-node-timeout",
              Long.toString(NODE_TIMEOUT.toMillis()),
              // a replica may take over however long it was cut from its primary: on a busy machine
              // a fresh replica's link can be young, and a failover the test waits for must happen
              "--cluster-replica-validity-factor",
              "0",
              "--dir",
              directory.toString(),
              "--save",
              "",
              "--appendonly",
              "no",
              "--daemonize",
              "no")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      nodes.put(port, process);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + server, e);
    }
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    while (command(port, "PING").filter(reply -> reply.startsWith("+PONG")).isEmpty()) {
      if (!nodes.get(port).isAlive() || System.nanoTime() > deadline)
        throw new IllegalStateException(
            "redis-server did not come up on port " + port + ":\n" + read(log));
      pause(Duration.ofMillis(20));
    }
  }

  /**
   * Waits until every running node says cluster_state:ok, three primaries serve slots, and every replica
   * has its primary's data (a replica still in its first sync cannot take over when its primary dies).
   */
  public synchronized void awaitOk() {
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    while (!everyNodeOk()) {
      if (System.nanoTime() > deadline)
        throw new IllegalStateException("the Redis Cluster did not reach cluster_state:ok in "
            + START_WAIT + "; nodes:\n" + command(anyRunning(), "CLUSTER NODES").orElse("?"));
      pause(Duration.ofMillis(50));
    }
  }

  private boolean everyNodeOk() {
    for (var node : nodes.entrySet()) {
      if (node.getValue() == null) continue;
      Optional<String> info = command(node.getKey(), "CLUSTER INFO");
      if (info.isEmpty() || !info.get().contains("cluster_state:ok")) return false;
      Optional<String> replication = command(node.getKey(), "INFO replication");
      if (replication.isEmpty()) return false;
      if (replication.get().contains("role:slave")
          && !replication.get().contains("master_link_status:up")) return false;
    }
    return primariesWithSlots().size() == NODES / 2;
  }

  /** Starts every killed node again and waits until the cluster is ok: what the next test needs. */
  public synchronized void heal() {
    for (var node : nodes.entrySet()) if (node.getValue() == null) launch(node.getKey());
    awaitOk();
  }

  /** The port of the primary serving {@code key}'s slot now. */
  public synchronized int primaryOf(String key) {
    int slot = SlotHash.getSlot(key);
    for (var primary : primariesWithSlots().entrySet()) {
      for (int[] range : primary.getValue()) {
        if (slot >= range[0] && slot <= range[1]) return primary.getKey();
      }
    }
    throw new IllegalStateException("no primary serves slot " + slot);
  }

  /** The slot ranges ({@code [first, last]}) each live primary serves, by port. */
  public synchronized Map<Integer, List<int[]>> primariesWithSlots() {
    Map<Integer, List<int[]>> primaries = new LinkedHashMap<>();
    String table = command(anyRunning(), "CLUSTER NODES").orElse("");
    for (String line : table.split("\n")) {
      String[] fields = line.trim().split(" ");
      if (fields.length < 8) continue;
      String flags = fields[2];
      if (!flags.contains("master") || flags.contains("fail")) continue;
      String address = fields[1];
      int port =
          Integer.parseInt(address.substring(address.lastIndexOf(':') + 1).split("[@,]")[0]);
      List<int[]> ranges = new ArrayList<>();
      for (int i = 8; i < fields.length; i++) {
        if (fields[i].startsWith("[")) continue; // a slot being migrated
        String[] bounds = fields[i].split("-");
        int first = Integer.parseInt(bounds[0]);
        ranges.add(new int[] {first, bounds.length > 1 ? Integer.parseInt(bounds[1]) : first});
      }
      if (!ranges.isEmpty()) primaries.put(port, ranges);
    }
    return primaries;
  }

  /** SIGKILL: the node vanishes mid-whatever, as a crashed one does. */
  public synchronized void kill(int port) {
    Process process = nodes.get(port);
    if (process == null) return;
    process.destroyForcibly();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS))
        throw new IllegalStateException("redis-server on " + port + " survived SIGKILL");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    nodes.put(port, null);
  }

  /** Starts a killed node again with its node file: it rejoins (as a replica if it was failed over). */
  public synchronized void restart(int port) {
    if (nodes.get(port) != null)
      throw new IllegalStateException("redis-server on " + port + " is running");
    launch(port);
  }

  /** The port's role as the node itself reports it ({@code master} or {@code slave}), if it runs. */
  public synchronized Optional<String> role(int port) {
    return command(port, "ROLE").map(reply -> reply.contains("master") ? "master" : "slave");
  }

  /** One inline command's reply from the node on {@code port}; empty when it does not answer. */
  public Optional<String> reply(int port, String command) {
    return command(port, command);
  }

  /** Sends one inline command (e.g. {@code SCRIPT FLUSH}) to every running node; their replies. */
  public synchronized List<String> onEveryNode(String command) {
    List<String> replies = new ArrayList<>();
    for (var node : nodes.entrySet()) {
      if (node.getValue() != null)
        replies.add(command(node.getKey(), command).orElse("(no reply)"));
    }
    return replies;
  }

  private int anyRunning() {
    return nodes.entrySet().stream()
        .filter(node -> node.getValue() != null)
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no Redis Cluster node runs"));
  }

  private synchronized void destroy() {
    for (var node : nodes.entrySet()) {
      if (node.getValue() != null) node.getValue().destroyForcibly();
    }
    for (Process process : nodes.values()) {
      if (process == null) continue;
      try {
        process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // a leftover temp directory is harmless
    }
  }

  /**
   * One inline command's reply as text (bulk strings and arrays of them flattened), or empty when the
   * node does not answer: a plain socket, so checking the cluster needs no client of its own.
   */
  private static Optional<String> command(int port, String command) {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      socket.setSoTimeout(1_000);
      OutputStream out = socket.getOutputStream();
      out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      var reply = new StringBuilder();
      readReply(in, reply);
      return Optional.of(reply.toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void readReply(InputStream in, StringBuilder reply) throws IOException {
    String line = readLine(in);
    switch (line.charAt(0)) {
      case '$' -> {
        int length = Integer.parseInt(line.substring(1));
        if (length < 0) return;
        reply.append(new String(in.readNBytes(length), StandardCharsets.UTF_8)).append('\n');
        readLine(in);
      }
      case '*' -> {
        int count = Integer.parseInt(line.substring(1));
        for (int i = 0; i < count; i++) readReply(in, reply);
      }
      default -> reply.append(line).append('\n');
    }
  }

  private static String readLine(InputStream in) throws IOException {
    var line = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\r') {
        in.read(); // the \n
        return line.toString();
      }
      line.append((char) c);
    }
    throw new IOException("the connection closed mid-reply");
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
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
