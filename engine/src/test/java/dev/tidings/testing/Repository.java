package dev.tidings.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's own files are, from a test run in any of its modules. */
public final class Repository {
  private Repository() {}

  /** The directory holding the Maven wrapper's {@code .mvn}: the repository's root. */
  public static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve(".mvn"))) return dir;
    }
    throw new IllegalStateException("no .mvn directory above " + Path.of("").toAbsolutePath());
  }

  public static Path file(String relative) {
    return root().resolve(relative);
  }
}
