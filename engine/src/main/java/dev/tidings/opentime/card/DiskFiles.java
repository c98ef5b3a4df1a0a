package dev.tidings.opentime.card;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Cache files written whole or not at all: a reader never sees half a PNG. */
final class DiskFiles {
  private DiskFiles() {}

  static void writeAtomically(Path file, byte[] bytes) throws IOException {
    var parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    var temporary = Files.createTempFile(parent, ".partial-", ".tmp");
    try {
      Files.write(temporary, bytes);
      try {
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
