package dev.tidings.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the real servers for adapter tests are, and what to do when one is not there: under CI
 * ({@code CI=true}) the test fails, since a skipped real-server test would hide exactly what CI is
 * for; on a developer's machine it is skipped with a loud notice.
 *
 * <p>Overridable with TIDINGS_TEST_DB_URL, TIDINGS_TEST_REDIS_URL and TIDINGS_TEST_AMQP_URL.
 */
public final class RealServers {
  private RealServers() {}

  public static String postgresJdbcUrl() {
    return env(
        "TIDINGS_TEST_DB_URL", "jdbc:postgresql://127.0.0.1:5432/tidings_test?user=postgres");
  }

  public static URI redisUrl() {
    return URI.create(env("TIDINGS_TEST_REDIS_URL", "redis://127.0.0.1:6379"));
  }

  public static URI amqpUrl() {
    return URI.create(env("TIDINGS_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672"));
  }

  public static void requirePostgres() {
    var uri = URI.create(postgresJdbcUrl().substring("jdbc:".length()));
    require("PostgreSQL", uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort());
    createTestDatabaseIfMissing();
  }

  /** Creates a database of its own for a test's nodes on the real server; returns its JDBC URL. */
  public static String createDatabase(String name) throws SQLException {
    requirePostgres();
    try (Connection connection = DriverManager.getConnection(databaseUrl("postgres"));
        var statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    }
    return databaseUrl(name);
  }

  public static void dropDatabase(String name) throws SQLException {
    try (Connection connection = DriverManager.getConnection(databaseUrl("postgres"));
        var statement = connection.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  /** The test database's URL with another database name. */
  public static String databaseUrl(String name) {
    String url = postgresJdbcUrl();
    int slash = url.indexOf('/', "jdbc:postgresql://".length());
    int query = url.indexOf('?', slash);
    return url.substring(0, slash + 1) + name + (query < 0 ? "" : url.substring(query));
  }

  private static boolean testDatabaseChecked;

  /**
   * A fresh machine has the server but not the test database: create it through the server's own
   * {@code postgres} database, so {@code ./mvnw verify} needs no setup step of its own.
   */
  private static synchronized void createTestDatabaseIfMissing() {
    if (testDatabaseChecked) return;
    String url = postgresJdbcUrl();
    int slash = url.indexOf('/', "jdbc:postgresql://".length());
    int query = url.indexOf('?', slash);
    String name = url.substring(slash + 1, query < 0 ? url.length() : query);
    String admin =
        url.substring(0, slash + 1) + "postgres" + (query < 0 ? "" : url.substring(query));
    try (Connection connection = DriverManager.getConnection(admin);
        var exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      exists.setString(1, name);
      try (var rows = exists.executeQuery()) {
        if (!rows.next()) {
          try (var create = connection.createStatement()) {
            create.execute("CREATE DATABASE \"" + name.replace("\"", "\"\"") + "\"");
          }
        }
      }
      testDatabaseChecked = true;
    } catch (SQLException e) {
      // a concurrent build created it first,
      // or the URL names a database we may not create: the test says so
      if (!"42P04".equals(e.getSQLState())) {
        System.err.println("could not create the test database " + name + ": " + e.getMessage());
      }
    }
  }

  public static void requireRedis() {
    var uri = redisUrl();
    require("Redis", uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
  }

  public static void requireRabbitMq() {
    var uri = amqpUrl();
    require("RabbitMQ", uri.getHost(), uri.getPort() < 0 ? 5672 : uri.getPort());
  }

  /** Fails under CI, skips loudly elsewhere, when nothing listens at host:port. */
  public static void require(String server, String host, int port) {
    require(server, host, port, inCi());
  }

  static void require(String server, String host, int port, boolean ci) {
    if (reachable(host, port)) return;
    String message = server + " is not reachable at " + host + ":" + port
        + "; the tests that need it cannot run";
    if (ci) {
      Assertions.fail(message + " (CI=true: a real-server test must run, so this is a failure)");
    }
    System.err.println("\n*** SKIPPED: " + message + ". Start it (see .ci/run) to run them. ***\n");
    Assumptions.abort(message);
  }

  public static boolean inCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  private static boolean reachable(String host, int port) {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
