package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the edge shows to whom: health and metrics, failed keys, the interface it listens on. */
class EdgeExposureTest {
  private static final String KEY = "edge-key-0123456789abcdef";
  private static final String TOKEN = "metrics-token-0123456789";
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private HttpServer server;

  private HttpServer start(Optional<InetAddress> bind) {
    var throttle = new AuthThrottle(
        InProcessCoordination.rateLimiter(InstantSource.system()),
        registry,
        InstantSource.system());
    server = HttpServer.start(
        new HttpServer.Options(
            0,
            new Secret(KEY),
            Duration.ofSeconds(1),
            bind,
            Optional.of(new Secret(TOKEN)),
            Optional.of(throttle)),
        registry,
        List.of(new DependencyCheck(
            "postgresql", "db.internal:5432 user tidings", () -> Optional.empty())),
        List.of());
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  private HttpResponse<String> get(String path, Optional<String> bearer) throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    bearer.ifPresent(value -> request.header("Authorization", "Bearer " + value));
    return client.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void health_without_a_key_shows_the_status_only_and_metrics_need_the_key_or_the_token()
      throws Exception {
    start(Optional.empty());
    var anonymous = get("/health", Optional.empty());
    assertThat(anonymous.statusCode()).isEqualTo(200);
    assertThat(anonymous.body()).isEqualTo("{\"status\":\"up\"}");
    var operator = get("/health", Optional.of(KEY));
    assertThat(operator.body()).contains("postgresql").doesNotContain("db.internal", "tidings");
    assertThat(get("/metrics", Optional.empty()).statusCode()).isEqualTo(401);
    assertThat(get("/metrics", Optional.of(TOKEN)).statusCode()).isEqualTo(200);
    assertThat(get("/metrics", Optional.of(KEY)).statusCode()).isEqualTo(200);
  }

  @Test
  void the_eleventh_wrong_key_in_a_minute_gets_429_and_is_counted() throws Exception {
    start(Optional.empty());
    for (int i = 0; i < AuthThrottle.FAILURES; i++) {
      assertThat(get("/api/v1/anything", Optional.of("wrong-" + i)).statusCode())
          .isEqualTo(401);
    }
    var eleventh = get("/api/v1/anything", Optional.of("wrong-eleventh"));
    assertThat(eleventh.statusCode()).isEqualTo(429);
    assertThat(eleventh.headers().firstValue("Retry-After")).isPresent();
    assertThat(registry.scrape())
        .contains("tidings_auth_failures_total{kind=\"api_key\"} 11.0")
        .doesNotContain("wrong-");
  }

  @Test
  void wrong_keys_from_one_address_never_keep_the_right_key_or_token_out() throws Exception {
    start(Optional.empty());
    // behind a proxy every client has its address: one client guessing must not close the node
    int right = 0;
    int wrongRefused = 0;
    for (int i = 0; i < 15; i++) {
      for (int j = 0; j < 2; j++) {
        int status =
            get("/api/v1/anything", Optional.of("guess-" + i + "-" + j)).statusCode();
        if (status == 429) wrongRefused++;
        assertThat(status).isIn(401, 429);
      }
      if (get("/api/v1/anything", Optional.of(KEY)).statusCode() == 404) right++;
    }
    assertThat(wrongRefused).as("wrong keys past the limit").isPositive();
    assertThat(right).as("the right key, between the wrong ones").isEqualTo(15);
    assertThat(get("/metrics", Optional.of(TOKEN)).statusCode()).isEqualTo(200);
    assertThat(get("/health", Optional.of(KEY)).body()).contains("postgresql");
  }

  @Test
  void one_wrong_key_retried_from_many_addresses_is_throttled_by_the_key() throws Exception {
    start(Optional.empty());
    for (int i = 0; i < AuthThrottle.FAILURES; i++) {
      var from = HttpClient.newBuilder()
          .localAddress(InetAddress.getByName("127.0.0." + (10 + i)))
          .connectTimeout(Duration.ofSeconds(3))
          .build();
      var request = HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + server.port() + "/api/v1/anything"))
          .header("Authorization", "Bearer revoked-key-0123456789")
          .build();
      assertThat(from.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(401);
    }
    assertThat(get("/api/v1/anything", Optional.of("revoked-key-0123456789")).statusCode())
        .as("the same key from yet another address")
        .isEqualTo(429);
    assertThat(get("/api/v1/anything", Optional.of("another-wrong-key")).statusCode())
        .as("another key from this address")
        .isEqualTo(401);
  }

  @Test
  void a_node_bound_to_loopback_listens_there_only() throws Exception {
    start(Optional.of(InetAddress.getLoopbackAddress()));
    assertThat(get("/health", Optional.empty()).statusCode()).isEqualTo(200);
    Optional<InetAddress> other = NetworkInterface.networkInterfaces()
        .flatMap(NetworkInterface::inetAddresses)
        .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
        .findFirst();
    if (other.isPresent()) {
      try (var socket = new Socket()) {
        Assertions.assertThatThrownBy(
                () -> socket.connect(new InetSocketAddress(other.get(), server.port()), 2000))
            .isInstanceOf(IOException.class);
      }
    }
  }
}
