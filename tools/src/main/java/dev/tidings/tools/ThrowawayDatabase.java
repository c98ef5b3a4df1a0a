package dev.tidings.tools;

import dev.tidings.config.Settings;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.storage.EmbeddedPostgresServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;

/**
 * A migrated database that leaves nothing behind, for benchmarks: the configured PostgreSQL
 * ({@code TIDINGS_DB_URL}) in a schema of its own, dropped on close, else a fresh embedded
 * PostgreSQL under a directory the caller deletes.
 */
public final class ThrowawayDatabase implements AutoCloseable {
  private final Database database;

  private ThrowawayDatabase(Database database) {
    this.database = database;
  }

  public static ThrowawayDatabase open(Settings settings, Path workDirectory) {
    return open(settings, workDirectory, 4);
  }

  /** {@code connections}: the embedded server's pool; a configured one keeps its own pool size. */
  public static ThrowawayDatabase open(Settings settings, Path workDirectory, int connections) {
    String schema = "bench_"
        + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    Database database;
    if (settings.dbUrl().isPresent()) {
      var spec = ConnectionSpec.from(settings, settings.dbUrl().get()).withSchema(schema);
      database = Database.connect(spec, () -> {}, new SimpleMeterRegistry());
    } else {
      var server = EmbeddedPostgresServer.start(workDirectory.resolve("pg"));
      database = Database.connect(
          server.connectionSpec(connections).withSchema(schema), server, new SimpleMeterRegistry());
    }
    try {
      database.migrate();
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    return new ThrowawayDatabase(database);
  }

  public Database database() {
    return database;
  }

  @Override
  public void close() {
    try {
      database
          .jdbi()
          .useHandle(handle -> handle.execute("DROP SCHEMA \"" + database.schema() + "\" CASCADE"));
    } finally {
      database.close();
    }
  }
}
