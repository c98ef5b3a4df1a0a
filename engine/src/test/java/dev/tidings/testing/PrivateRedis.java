package dev.tidings.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A redis-server of a test's own on a spare port, without persistence, that the test may kill (SIGKILL)
 * and start again on the same port. The shared Redis on 6379 is never touched. Where redis-server is not
 * installed, the test fails under CI and is skipped elsewhere, as {@link RealServers} does.
 */
public final class PrivateRedis implements AutoCloseable {
  private static final Duration START_WAIT = Duration.ofSeconds(10);

  private final String executable;
  private final int port;
  private final Path log;
  private final Thread killOnExit = Thread.ofPlatform().unstarted(this::kill);
  private Process process;

  private PrivateRedis(String executable, int port, Path log) {
    this.executable = executable;
    this.port = port;
    this.log = log;
  }

  public static PrivateRedis start() {
    String executable = findOnPath("redis-server");
    try {
      var redis = new PrivateRedis(
          executable, freePort(), Files.createTempFile("tidings-private-redis", ".log"));
      Runtime.getRuntime()
          .addShutdownHook(redis.killOnExit); // a test JVM that ends early leaves no server behind
      redis.restart();
      return redis;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start a private redis-server", e);
    }
  }

  public URI uri() {
    return URI.create("redis://127.0.0.1:" + port);
  }

  public int port() {
    return port;
  }

  /** SIGKILL: the server vanishes mid-whatever, as a crashed one does. */
  public synchronized void kill() {
    if (process == null) return;
    process.destroyForcibly();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS))
        throw new IllegalStateException("redis-server on " + port + " survived SIGKILL");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    process = null;
  }

  /** Starts the server (again) on the same port, empty, and waits until it answers PING. */
  public synchronized void restart() {
    if (process != null) throw new IllegalStateException("redis-server on " + port + " is running");
    try {
      process = new ProcessBuilder(
              executable,
              "--port",
              Integer.toString(port),
              "--bind",
              "127.0.0.1",
              "--save",
              "",
              "--appendonly",
              "no",
              "--daemonize",
              "no")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + executable, e);
    }
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    while (!answersPing()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String output = readLog();
        kill();
        throw new IllegalStateException(
            "redis-server did not come up on port " + port + ":\n" + output);
      }
      pause(Duration.ofMillis(20));
    }
  }

  @Override
  public void close() {
    try {
      kill();
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } finally {
      try {
        Files.deleteIfExists(log);
      } catch (IOException ignored) {
        // a leftover temp log is harmless
      }
    }
  }

  private boolean answersPing() {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = in.readNBytes(7);
      return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  private String readLog() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** A port nothing listens on right now (the kernel's pick; another process could take it, rarely). */
  public static int freePort() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  static String findOnPath(String program) {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String directory : path.split(File.pathSeparator)) {
        Path candidate = Path.of(directory, program);
        if (Files.isExecutable(candidate)) return candidate.toString();
      }
    }
    String message =
        program + " is not on the PATH; the fault tests that run a private Redis cannot run";
    if (RealServers.inCi())
      Assertions.fail(message + " (CI=true: a real-server test must run, so this is a failure)");
    System.err.println("\n*** SKIPPED: " + message + ". ***\n");
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
