package dev.tidings.storage;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.tidings.TidingsException;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A pooled connection to one PostgreSQL database (external or embedded) with Tidings' schema applied.
 * Capabilities get the {@link Jdbi} handle; nothing else in Tidings opens connections of its own.
 */
public final class Database implements AutoCloseable {
  private final HikariDataSource dataSource;
  private final Jdbi jdbi;
  private final String schema;
  private final String description;
  private final AutoCloseable owned;
  private final ConnectionSpec spec;

  private Database(
      HikariDataSource dataSource,
      ConnectionSpec spec,
      AutoCloseable owned,
      MeterRegistry metrics) {
    this.dataSource = dataSource;
    this.spec = spec;
    this.schema = spec.schema();
    this.description = spec.describe();
    this.owned = owned;
    this.jdbi = Jdbi.create(dataSource).installPlugin(new PostgresPlugin());
    // made now, on the Jdbi itself: each handle's configuration is a copy of the Jdbi's,
    // so they all share this one (made later, each handle would make one of its own
    // and log every row again)
    StoredRows.of(jdbi).countInto(metrics);
  }

  /**
   * Connects to {@code jdbcUrl}. {@code schema} is where Tidings' tables live ("public" in a normal
   * install; tests use a schema of their own). {@code owned} is closed after the pool, e.g. an embedded server.
   * The pool's gauges and timers, and the reads of rows that break today's rules ({@link StoredRows}),
   * are published to {@code metrics}.
   */
  public static Database connect(ConnectionSpec spec, AutoCloseable owned, MeterRegistry metrics) {
    return connect(spec, owned, metrics, ConnectionSpec.Role.PRIMARY);
  }

  /**
   * A second pool for reads that may lag behind the primary by a moment (a standby's), e.g. the
   * dashboard's and the recommender's; its connections are read-only. Never migrated.
   */
  public static Database connectForReads(ConnectionSpec spec, MeterRegistry metrics) {
    return connect(spec, () -> {}, metrics, ConnectionSpec.Role.READ);
  }

  private static Database connect(
      ConnectionSpec spec, AutoCloseable owned, MeterRegistry metrics, ConnectionSpec.Role role) {
    Objects.requireNonNull(metrics, "metrics");
    var config = new HikariConfig();
    String poolName = role == ConnectionSpec.Role.PRIMARY ? "tidings-db" : "tidings-db-read";
    config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
    config.setExceptionOverride(new PoolEvictions(metrics, role));
    config.setPoolName(poolName);
    config.setJdbcUrl(spec.pooledUrl(role));
    spec.user().ifPresent(config::setUsername);
    spec.password().ifPresent(config::setPassword);
    config.setMaximumPoolSize(spec.poolSize());
    config.setMinimumIdle(Math.min(2, spec.poolSize()));
    config.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
    config.setInitializationFailTimeout(Duration.ofSeconds(15).toMillis());
    // An idle connection is checked every 30 s (the pool's shortest), a check gives up after 2 s,
    // and no connection lives past 10 min: one left on a server that stopped being the primary
    // goes soon even if nothing fails on it.
    config.setKeepaliveTime(Duration.ofSeconds(30).toMillis());
    config.setValidationTimeout(Duration.ofSeconds(2).toMillis());
    config.setMaxLifetime(Duration.ofMinutes(10).toMillis());
    config.setReadOnly(role == ConnectionSpec.Role.READ);
    config.addDataSourceProperty("reWriteBatchedInserts", "true");
    config.addDataSourceProperty("ApplicationName", poolName.replace("-db", ""));
    config.setConnectionInitSql(
        "SET search_path TO " + quoteIdentifier(spec.schema()) + ", public");
    try {
      return new Database(new HikariDataSource(config), spec, owned, metrics);
    } catch (RuntimeException e) {
      closeQuietly(owned);
      throw new StorageException(
          "cannot connect to PostgreSQL at " + spec.describe() + ": "
              + TidingsException.rootMessage(e),
          e);
    }
  }

  /** Applies pending migrations from {@code db/migration}; safe to call on every start and from many nodes. */
  public MigrateResult migrate() {
    // A connection of its own without the pool's socket timeout: building an index may take longer.
    var unbounded = new PGSimpleDataSource();
    unbounded.setURL(spec.unboundedUrl(ConnectionSpec.Role.PRIMARY));
    spec.user().ifPresent(unbounded::setUser);
    spec.password().ifPresent(unbounded::setPassword);
    unbounded.setApplicationName("tidings-migrations");
    return Flyway.configure()
        .dataSource(unbounded)
        .schemas(schema)
        .defaultSchema(schema)
        .locations("classpath:db/migration")
        .createSchemas(true)
        .load()
        .migrate();
  }

  public Jdbi jdbi() {
    return jdbi;
  }

  /**
   * A connection of its own, outside the pool, for a listener that holds it open for the node's life
   * (LISTEN); the caller closes it.
   */
  public Connection dedicatedConnection() throws SQLException {
    var properties = new Properties();
    spec.user().ifPresent(user -> properties.setProperty("user", user));
    spec.password().ifPresent(password -> properties.setProperty("password", password));
    properties.setProperty("ApplicationName", "tidings-listener");
    Connection connection =
        DriverManager.getConnection(spec.unboundedUrl(ConnectionSpec.Role.PRIMARY), properties);
    try (var statement = connection.createStatement()) {
      statement.execute("SET search_path TO " + quoteIdentifier(spec.schema()) + ", public");
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  /**
   * How far the server behind this pool is behind its primary, when it is a standby; empty when it
   * is a primary itself (e.g. promoted).
   */
  public Optional<ReplicationLag> replicationLag() {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT pg_is_in_recovery() AS standby,"
                + " CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
                + " ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000 END"
                + " AS behind_millis,"
                + " pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()) AS behind_bytes")
        .map((rows, context) -> rows.getBoolean("standby")
            ? Optional.of(new ReplicationLag(
                Duration.ofMillis(Math.max(0, Math.round(rows.getDouble("behind_millis")))),
                Math.max(0, rows.getLong("behind_bytes"))))
            : Optional.<ReplicationLag>empty())
        .one());
  }

  /** A standby's distance behind its primary: in time (0 when it has replayed all it received) and in WAL bytes. */
  public record ReplicationLag(Duration behind, long bytesNotReplayed) {}

  public DataSource dataSource() {
    return dataSource;
  }

  public String schema() {
    return schema;
  }

  public String describe() {
    return description;
  }

  /** Round trip used by /health; an empty result means the database answered. */
  public Optional<String> problem() {
    try (Connection connection = dataSource.getConnection()) {
      return connection.isValid(2) ? Optional.empty() : Optional.of("connection not valid");
    } catch (SQLException | RuntimeException e) {
      return Optional.of(TidingsException.rootMessage(e));
    }
  }

  @Override
  public void close() {
    dataSource.close();
    closeQuietly(owned);
  }

  static String quoteIdentifier(String identifier) {
    Objects.requireNonNull(identifier, "identifier");
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // Closing after a failure; the original failure is what the caller needs to see.
    }
  }
}
