package dev.tidings.delivery.webhook.ses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.VerificationUnavailable;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fetching and keeping certificates, against a local server standing in for the SNS host (the
 * allow-list is {@link SnsHosts}' job, checked before a fetch; see SesWebhookTest).
 */
class FetchedSigningKeysTest {
  private static final String CERT =
      "SimpleNotificationService-7506a1e35b36ef5a444dd1a8e7cc3ed8.pem";
  private final AtomicInteger fetches = new AtomicInteger();
  private HttpServer server;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/" + CERT, exchange -> {
      fetches.incrementAndGet();
      byte[] body = Fixtures.bytes(SnsFixtures.SNS + "certs/" + CERT);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.createContext("/missing.pem", exchange -> {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
    });
    server.createContext("/slow.pem", exchange -> {
      try {
        Thread.sleep(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + path);
  }

  @Test
  void a_certificate_is_fetched_once_and_kept() {
    var keys = FetchedSigningKeys.withTimeout(
        Duration.ofSeconds(2), Fixtures.clockAt(Instant.parse("2026-03-06T19:31:32Z")));
    assertThat(keys.keysFor(url(CERT))).hasSize(1);
    assertThat(keys.keysFor(url(CERT))).hasSize(1);
    assertThat(fetches.get()).isEqualTo(1);
  }

  @Test
  void an_expired_certificate_gives_no_key() {
    var keys = FetchedSigningKeys.withTimeout(
        Duration.ofSeconds(2), Fixtures.clockAt(Instant.parse("2027-01-01T00:00:00Z")));
    assertThat(keys.keysFor(url(CERT))).isEmpty();
  }

  @Test
  void a_host_that_fails_or_is_slow_makes_verification_unavailable() {
    var keys = FetchedSigningKeys.withTimeout(
        Duration.ofMillis(300), Fixtures.clockAt(Instant.parse("2026-03-06T19:31:32Z")));
    assertThatThrownBy(() -> keys.keysFor(url("missing.pem")))
        .isInstanceOf(VerificationUnavailable.class)
        .hasMessageContaining("404");
    long started = System.nanoTime();
    assertThatThrownBy(() -> keys.keysFor(url("slow.pem")))
        .isInstanceOf(VerificationUnavailable.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1_900));
  }
}
