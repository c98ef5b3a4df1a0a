package dev.tidings.storage;

import dev.tidings.TidingsException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A real PostgreSQL started by Tidings itself, its data kept under a directory so that a second start
 * finds everything the first one wrote. This is the zero-install default; production points
 * {@code TIDINGS_DB_URL} at its own server instead.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  private final EmbeddedPostgres postgres;
  private final Path dataDirectory;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory) {
    this.postgres = postgres;
    this.dataDirectory = dataDirectory;
  }

  /** Starts (or restarts on existing data) a server whose files live in {@code dataDirectory}, on a free port. */
  public static EmbeddedPostgresServer start(Path dataDirectory) {
    return start(dataDirectory, 0);
  }

  /**
   * As {@link #start(Path)}, listening on {@code port}, or on a free port when it is 0: a restart on the
   * same port lets clients that know the old address (a connection pool) reconnect.
   */
  public static EmbeddedPostgresServer start(Path dataDirectory, int port) {
    if (port < 0 || port > 65_535)
      throw new IllegalArgumentException("port must be within 0..65535 but was " + port);
    try {
      Files.createDirectories(dataDirectory);
      OrphanedPostmaster.stopIfLeft(dataDirectory);
      var postgres = EmbeddedPostgres.builder()
          .setPort(port)
          .setDataDirectory(dataDirectory)
          .setCleanDataDirectory(false)
          .setPGStartupWait(Duration.ofSeconds(60))
          .setServerConfig("max_connections", "200")
          .setServerConfig("shared_buffers", "128MB")
          .setServerConfig("synchronous_commit", "on")
          .start();
      return new EmbeddedPostgresServer(postgres, dataDirectory);
    } catch (IOException e) {
      throw new StorageException(
          "cannot start the embedded PostgreSQL in " + dataDirectory + ": "
              + TidingsException.rootMessage(e)
              + " (is another Tidings using this data directory?)",
          e);
    }
  }

  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  public int port() {
    return postgres.getPort();
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  public ConnectionSpec connectionSpec(int poolSize) {
    return new ConnectionSpec(
        jdbcUrl(),
        Optional.of("postgres"),
        Optional.empty(),
        ConnectionSpec.DEFAULT_SCHEMA,
        poolSize);
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }
}
