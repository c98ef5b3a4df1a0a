package dev.tidings.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL of a node that was killed (SIGKILL, the OOM killer, a power cut of the JVM
 * alone) outlives it: the server runs detached, so nothing stops it, and the next start on the same data
 * directory cannot start a second one there. Before a start, the server such a node left is stopped
 * (a fast shutdown, as on a normal stop), so a node killed at any moment starts again on its data.
 *
 * <p>Whose server it is comes from the lock file the embedded server's owner holds while it runs
 * ({@code epg-lock}, an OS file lock released by the kernel when its process dies): a server whose
 * lock nobody holds was left; one whose lock is held belongs to a live node, which is refused.
 */
final class OrphanedPostmaster {
  private static final Logger log = LoggerFactory.getLogger(OrphanedPostmaster.class);
  private static final String OWNER_LOCK = "epg-lock";
  private static final String PID_FILE = "postmaster.pid";
  private static final Duration FAST_SHUTDOWN = Duration.ofSeconds(30);

  private OrphanedPostmaster() {}

  /** Stops the server a dead node left running on {@code dataDirectory}, if there is one. */
  static void stopIfLeft(Path dataDirectory) throws IOException {
    Optional<ProcessHandle> left = runningServer(dataDirectory);
    if (left.isEmpty()) return;
    try (var channel = FileChannel.open(
            dataDirectory.resolve(OWNER_LOCK),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
        var owner = channel.tryLock()) {
      if (owner == null)
        throw new StorageException("another process runs the embedded PostgreSQL in "
            + dataDirectory + " (pid " + left.get().pid() + "): stop that node first");
      stop(left.get(), dataDirectory);
    } catch (OverlappingFileLockException ownedHere) {
      throw new StorageException(
          "this process already runs the embedded PostgreSQL in " + dataDirectory, ownedHere);
    }
  }

  /** The live PostgreSQL server {@code postmaster.pid} names, if it still runs on this directory. */
  static Optional<ProcessHandle> runningServer(Path dataDirectory) throws IOException {
    Path pidFile = dataDirectory.resolve(PID_FILE);
    if (!Files.isRegularFile(pidFile)) return Optional.empty();
    List<String> lines = Files.readAllLines(pidFile);
    if (lines.size() < 2) return Optional.empty();
    long pid;
    try {
      pid = Long.parseLong(lines.get(0).strip());
    } catch (NumberFormatException notAPid) {
      return Optional.empty();
    }
    // a pid file whose server died long ago may name a process that has since reused the number
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(process -> process.info().command().orElse("").endsWith("/postgres"))
        .filter(process -> sameDirectory(Path.of(lines.get(1).strip()), dataDirectory));
  }

  private static boolean sameDirectory(Path named, Path dataDirectory) {
    try {
      return Files.isSameFile(named, dataDirectory);
    } catch (IOException gone) {
      return false;
    }
  }

  private static void stop(ProcessHandle server, Path dataDirectory) throws IOException {
    log.warn(
        "the embedded PostgreSQL in {} (pid {}) was left running by a node that did not stop;"
            + " stopping it before starting again",
        dataDirectory,
        server.pid());
    // SIGINT is PostgreSQL's fast shutdown: sessions are ended, the data written out, no recovery
    var signal = new ProcessBuilder("kill", "-INT", Long.toString(server.pid()))
        .redirectErrorStream(true)
        .start();
    try {
      signal.waitFor(5, TimeUnit.SECONDS);
      server.onExit().get(FAST_SHUTDOWN.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException slow) {
      log.warn(
          "the embedded PostgreSQL (pid {}) did not stop in {}; killing it",
          server.pid(),
          FAST_SHUTDOWN);
      server.destroyForcibly();
      server.onExit().join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while stopping the embedded PostgreSQL", e);
    } catch (ExecutionException e) {
      throw new StorageException(
          "cannot stop the embedded PostgreSQL (pid " + server.pid() + ")", e);
    }
  }
}
