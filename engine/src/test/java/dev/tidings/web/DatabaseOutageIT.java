package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.Subscriber;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionService;
import dev.tidings.config.Secret;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import dev.tidings.testing.RealServers;
import dev.tidings.web.audience.AudienceRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An ordinary API route while its database is really taken away (no connections allowed, every
 * backend terminated) and given back, on the real PostgreSQL: the client is told to come back later,
 * not that the server is broken, and the route works again once the pool reconnects.
 */
class DatabaseOutageIT {
  private static final String KEY = "database-outage-key-0123456789";
  private static final String NAME =
      "tidings_outage_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  private static final String SUBSCRIBER = "/api/v1/subscribers/s-1";
  /** Long enough for the pool to reconnect several times over, short enough to end a hung test. */
  private static final Duration RECONNECT_LIMIT = Duration.ofSeconds(60);

  private static final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static Database database;
  private static HttpServer server;

  @BeforeAll
  static void start() throws SQLException {
    String url = RealServers.createDatabase(NAME);
    // The pool waits 10 s for a connection before it gives up; the test shortens that through the
    // pool's runtime settings, which the pool reads on its housekeeping round: made frequent here
    // so the shorter wait applies before the outage, and only for this pool.
    String housekeeping = "com.zaxxer.hikari.housekeeping.periodMs";
    System.setProperty(housekeeping, "200");
    try {
      database = Database.connect(
          new ConnectionSpec(url, Optional.empty(), Optional.empty(), "public", 4),
          () -> {},
          new SimpleMeterRegistry());
    } finally {
      System.clearProperty(housekeeping);
    }
    ((HikariDataSource) database.dataSource()).getHikariConfigMXBean().setConnectionTimeout(1500);
    database.migrate();
    InstantSource clock = InstantSource.system();
    var subscribers = new SubscriberService(database.jdbi(), clock);
    subscribers.put(new Subscriber(
        "s-1",
        "ada@example.com",
        Optional.of("Ada"),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.empty(),
        Consent.SUBSCRIBED));
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new AudienceRoutes(
            subscribers,
            new FollowService(database.jdbi(), clock),
            new SuppressionService(database.jdbi(), clock),
            new SuppressionChanges(new SimpleMeterRegistry()),
            clock,
            8 * 1024,
            1024 * 1024)));
  }

  @AfterAll
  static void stop() throws SQLException {
    if (server != null) server.close();
    if (database != null) database.close();
    asSuperuser("ALTER DATABASE " + NAME + " ALLOW_CONNECTIONS true");
    RealServers.dropDatabase(NAME);
  }

  @Test
  void a_route_answers_503_with_retry_after_while_its_database_is_away_and_200_once_it_is_back()
      throws Exception {
    assertThat(get(SUBSCRIBER).statusCode()).isEqualTo(200);

    takeTheDatabaseAway();
    // the first request meets a connection that was cut, the later ones a pool that cannot connect
    for (int attempt = 0; attempt < 3; attempt++) {
      var away = get(SUBSCRIBER);

      assertThat(away.statusCode()).isEqualTo(503);
      assertThat(away.headers().firstValue("Retry-After")).hasValue("5");
      var body = Json.MAPPER.readTree(away.body());
      assertThat(body.path("error").asString()).isEqualTo("unavailable");
      assertThat(body.path("detail").asString())
          .startsWith("the database is unavailable")
          .doesNotContain(NAME, "127.0.0.1", "jdbc:", "postgres");
    }

    asSuperuser("ALTER DATABASE " + NAME + " ALLOW_CONNECTIONS true");

    assertThat(firstStatusOtherThan503(SUBSCRIBER)).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(get(SUBSCRIBER).body()).path("email").asString())
        .isEqualTo("ada@example.com");
  }

  /** No new connection is allowed, and every one the pool holds is cut, as a failover does. */
  private static void takeTheDatabaseAway() throws SQLException {
    asSuperuser("ALTER DATABASE " + NAME + " ALLOW_CONNECTIONS false");
    asSuperuser("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + NAME
        + "' AND pid <> pg_backend_pid()");
  }

  /** The pool reconnects on its own time: ask until the answer is no longer "come back later". */
  private static int firstStatusOtherThan503(String path) throws Exception {
    long deadline = System.nanoTime() + RECONNECT_LIMIT.toNanos();
    int status = get(path).statusCode();
    while (status == 503 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      status = get(path).statusCode();
    }
    return status;
  }

  private static void asSuperuser(String sql) throws SQLException {
    try (var connection = DriverManager.getConnection(RealServers.databaseUrl("postgres"));
        var statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
            .header("Authorization", "Bearer " + KEY)
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
