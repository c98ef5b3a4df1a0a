package dev.tidings.app;

import dev.tidings.config.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Secrets an operator did not configure are generated once and kept in the data directory (mode 600),
 * so a restart keeps signed links and API clients working.
 */
final class DataDirSecrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private DataDirSecrets() {}

  /** Returns the secret stored in {@code file}, creating it with {@code bytes} random bytes if absent. */
  static Generated loadOrCreate(Path file, String prefix, int bytes) {
    try {
      if (Files.exists(file)) {
        return new Generated(
            new Secret(Files.readString(file, StandardCharsets.UTF_8).trim()), false);
      }
      Files.createDirectories(file.getParent());
      byte[] random = new byte[bytes];
      RANDOM.nextBytes(random);
      String value = prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      try {
        Files.writeString(
            file,
            value + "\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException raced) {
        return new Generated(
            new Secret(Files.readString(file, StandardCharsets.UTF_8).trim()), false);
      }
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException notPosix) {
        // Windows and friends: the data directory's own permissions are what protects it there.
      }
      return new Generated(new Secret(value), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create " + file, e);
    }
  }

  record Generated(Secret secret, boolean isNew) {}
}
