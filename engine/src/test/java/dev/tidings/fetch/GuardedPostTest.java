package dev.tidings.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The guarded POST a webhook goes out through: the same address rules as a fetch (a private address
 * only where the allowance names it), no redirect followed, the answer's body read only up to the
 * limit, and the deadline kept.
 */
class GuardedPostTest {
  private static final GuardedFetcher.Limits LIMITS =
      new GuardedFetcher.Limits(Duration.ofMillis(500), Duration.ofMillis(700), 1024, 0);

  private HttpServer server;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/ok", exchange -> {
      try (exchange) {
        received.add(exchange.getRequestMethod() + " "
            + exchange.getRequestHeaders().getFirst("Content-Type") + " "
            + exchange.getRequestHeaders().getFirst("webhook-id") + " "
            + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        exchange.sendResponseHeaders(204, -1);
      }
    });
    server.createContext("/moved", exchange -> {
      try (exchange) {
        received.add("moved");
        exchange.getResponseHeaders().add("Location", "/ok");
        exchange.sendResponseHeaders(307, -1);
      }
    });
    server.createContext("/huge", exchange -> {
      try (exchange) {
        exchange.getRequestBody().readAllBytes();
        exchange.sendResponseHeaders(200, 0);
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = exchange.getResponseBody()) {
          for (int i = 0; i < 1024; i++) out.write(chunk); // 64 MiB, if anyone read it all
        } catch (IOException dropped) {
          // the client stopped reading: what the limit is for
        }
      }
    });
    server.createContext("/hang", exchange -> {
      try (exchange) {
        Thread.sleep(5_000);
        exchange.sendResponseHeaders(200, -1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  private PostResult post(FetchAllowance allowance, URI url) {
    try (var fetcher = new GuardedFetcher(allowance, LIMITS, registry)) {
      return fetcher.post(
          url,
          FetchPurpose.WEBHOOK,
          Map.of("webhook-id", "evt_1"),
          "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
          "application/cloudevents+json");
    }
  }

  private static FetchAllowance local(HttpServer server) {
    return FetchAllowance.addressAndPort(
        InetAddress.getLoopbackAddress(), server.getAddress().getPort());
  }

  @Test
  void a_private_address_is_refused_unless_the_allowance_names_it() {
    var refused = post(FetchAllowance.none(), url("/ok"));
    assertThat(refused).isInstanceOf(PostResult.Refused.class);
    assertThat(((PostResult.Refused) refused).reason()).contains("loopback");
    assertThat(received).isEmpty();

    var answered = post(local(server), url("/ok"));
    assertThat(answered).isInstanceOfSatisfying(PostResult.Answered.class, a -> {
      assertThat(a.status()).isEqualTo(204);
      assertThat(a.successful()).isTrue();
    });
    assertThat(received).containsExactly("POST application/cloudevents+json evt_1 {\"a\":1}");
    assertThat(registry
            .get("tidings_fetch_requests_total")
            .tag("purpose", "webhook")
            .tag("result", "refused")
            .counter()
            .count())
        .isEqualTo(1);
  }

  @Test
  void an_allowance_for_another_port_does_not_let_this_one_through() {
    var other = FetchAllowance.addressAndPort(
        InetAddress.getLoopbackAddress(), server.getAddress().getPort() + 1);
    assertThat(post(other, url("/ok"))).isInstanceOf(PostResult.Refused.class);
    assertThat(received).isEmpty();
  }

  @Test
  void a_redirect_is_the_answer_and_is_not_followed() {
    var answered = post(local(server), url("/moved"));
    assertThat(answered).isInstanceOfSatisfying(PostResult.Answered.class, a -> {
      assertThat(a.status()).isEqualTo(307);
      assertThat(a.successful()).isFalse();
    });
    assertThat(received).containsExactly("moved");
  }

  @Test
  void only_the_limit_of_an_answer_is_read_and_a_silent_server_runs_out_of_time() {
    long started = System.nanoTime();
    var huge = post(local(server), url("/huge"));
    assertThat(huge).isInstanceOfSatisfying(PostResult.Answered.class, a -> {
      assertThat(a.status()).isEqualTo(200);
      assertThat(a.head()).hasSizeLessThanOrEqualTo(1024);
    });
    var hung = post(local(server), url("/hang"));
    assertThat(hung).isInstanceOf(PostResult.Failed.class);
    // the deadline or the socket's read timeout, whichever notices first
    assertThat(hung.describe()).containsAnyOf("no complete answer within", "timed out");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
  }

  @Test
  void only_http_urls_are_posted_to() {
    assertThat(post(FetchAllowance.everything(), URI.create("file:///etc/passwd")))
        .isInstanceOf(PostResult.Refused.class);
    assertThat(post(FetchAllowance.everything(), URI.create("http://user:pw@127.0.0.1/ok")))
        .isInstanceOf(PostResult.Refused.class);
  }
}
