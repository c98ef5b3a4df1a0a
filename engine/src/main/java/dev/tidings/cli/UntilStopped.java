package dev.tidings.cli;

import dev.tidings.app.Logging;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * Keeps a command running until Ctrl-C or SIGTERM (what systemd and Kubernetes send), then closes what
 * it started in order (HTTP and its requests in flight, the consumers, the background jobs, the pools,
 * the embedded database last) and returns, so the command exits 0.
 *
 * <p>The signals are taken here rather than left to the JVM's shutdown: at shutdown every hook runs at
 * once, and the embedded database's own hook would stop it while the node is still draining. A second
 * signal during the stop ends the process at once. {@code sun.misc.Signal} (module jdk.unsupported,
 * kept for this use) is the only way a Java program takes a signal; javac warns of it at every build.
 */
public final class UntilStopped {
  private static final int INTERRUPTED_EXIT = 130;

  private UntilStopped() {}

  public static void await(AutoCloseable running) {
    var stop = new CountDownLatch(1);
    var stopping = new AtomicBoolean();
    boolean handled = take("INT", stop, stopping) & take("TERM", stop, stopping);
    if (!handled) {
      // a platform without these signals: the JVM's shutdown stops the node instead
      Runtime.getRuntime()
          .addShutdownHook(
              Thread.ofPlatform().name("tidings-shutdown").unstarted(() -> stopQuietly(running)));
    }
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    stopQuietly(running);
  }

  private static boolean take(String name, CountDownLatch stop, AtomicBoolean stopping) {
    try {
      Signal.handle(new Signal(name), signal -> {
        if (stopping.compareAndSet(false, true)) {
          stop.countDown();
        } else {
          System.err.println("\nstopping now, without waiting");
          Runtime.getRuntime().halt(INTERRUPTED_EXIT);
        }
      });
      return true;
    } catch (IllegalArgumentException unavailable) {
      return false;
    }
  }

  private static void stopQuietly(AutoCloseable running) {
    System.err.println("\nstopping...");
    Logging.quietForShutdown();
    try {
      running.close();
    } catch (Exception e) {
      System.err.println("while stopping: " + e);
    }
    System.err.println("stopped.");
  }
}
