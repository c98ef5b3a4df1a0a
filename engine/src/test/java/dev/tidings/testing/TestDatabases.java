package dev.tidings.testing;

import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.storage.EmbeddedPostgresServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * Fresh, migrated databases for tests: each call gets a schema of its own, so test classes (and
 * concurrent builds on one machine) never see each other's rows. {@link #embedded()} uses one
 * embedded PostgreSQL per test JVM; {@link #real()} uses the machine's PostgreSQL (see {@link RealServers}).
 */
public final class TestDatabases {
  private static EmbeddedPostgresServer embeddedServer;

  private TestDatabases() {}

  public enum Kind {
    EMBEDDED,
    REAL
  }

  public static Database open(Kind kind) {
    return kind == Kind.EMBEDDED ? embedded() : real();
  }

  public static Database embedded() {
    return embedded(8);
  }

  /** With a pool of {@code poolSize} connections, for tests of what holds them. */
  public static Database embedded(int poolSize) {
    return freshSchema(embeddedServer().connectionSpec(poolSize));
  }

  public static Database real() {
    QuickRun.refuse("a database on the machine's PostgreSQL");
    RealServers.requirePostgres();
    return freshSchema(new ConnectionSpec(
        RealServers.postgresJdbcUrl(), Optional.empty(), Optional.empty(), "public", 8));
  }

  public static synchronized EmbeddedPostgresServer embeddedServer() {
    QuickRun.refuse("an embedded PostgreSQL");
    if (embeddedServer == null) {
      try {
        var directory = Files.createTempDirectory("tidings-test-pg");
        embeddedServer = EmbeddedPostgresServer.start(directory.resolve("pg"));
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
          try {
            embeddedServer.close();
          } catch (IOException ignored) {
            // the JVM is going away; deleting the directory below is all that is left to do
          }
          deleteRecursively(directory);
        }));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return embeddedServer;
  }

  private static void deleteRecursively(Path root) {
    try (var paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // best effort: a leftover temp directory is harmless
    }
  }

  private static Database freshSchema(ConnectionSpec spec) {
    String schema = "t_"
        + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
    var database = Database.connect(spec.withSchema(schema), () -> {}, new SimpleMeterRegistry());
    database.migrate();
    return database;
  }
}
