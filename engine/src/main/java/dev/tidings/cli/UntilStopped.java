package dev.tidings.cli;

import dev.tidings.app.Logging;
import java.util.concurrent.CountDownLatch;

/** Keeps a command running until Ctrl-C or SIGTERM, then closes what it started. */
public final class UntilStopped {
  private UntilStopped() {}

  public static void await(AutoCloseable running) {
    var stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(Thread.ofPlatform().name("tidings-shutdown").unstarted(() -> {
          System.err.println("\nstopping...");
          Logging.quietForShutdown();
          try {
            running.close();
          } catch (Exception e) {
            System.err.println("while stopping: " + e);
          }
          System.err.println("stopped.");
          stopped.countDown();
        }));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
