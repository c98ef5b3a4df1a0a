package dev.tidings.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** A temporary directory for a benchmark's files and database, deleted with everything in it. */
final class ScratchDirectory implements AutoCloseable {
  private final Path path;

  private ScratchDirectory(Path path) {
    this.path = path;
  }

  static ScratchDirectory create(String prefix) {
    try {
      return new ScratchDirectory(Files.createTempDirectory(prefix));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    try (var paths = Files.walk(path)) {
      for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(each);
    }
  }
}
