package dev.tidings.web;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.config.Secret;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Request framing on one kept-alive connection, spoken byte by byte over a raw socket: a body the node
 * did not read is never taken for the next request, whatever kind of route answered it.
 */
class RequestFramingTest {
  private static final String KEY = "test-key-0123456789abcdef";
  private static final String SMUGGLED = "GET /o/smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
  private static PrometheusMeterRegistry registry;
  private static HttpServer server;

  @BeforeAll
  static void start() {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RouteGroup routes = routing -> {
      routing.post(
          "/api/v1/echo",
          (request, response) ->
              JsonBodies.ok(response, Map.of("got", JsonBodies.read(request, 64))));
      // an email-facing image route: answers without looking at any body
      routing.get("/o/{token}", (request, response) -> {
        response.header("X-Token", request.path().pathParameters().get("token"));
        response.send("image");
      });
      // a form refused for its origin before its body is read, as the dashboard's guard does
      routing.post(
          "/form",
          (request, response) ->
              ErrorMapping.send(response, ApiProblem.forbidden("a form from another site")));
    };
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        registry,
        List.of(new DependencyCheck("postgresql", "test", Optional::empty)),
        List.of(routes));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Each kind of answer given without reading the body: a missing key, malformed input, a refused form, health, an image. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "POST /api/v1/echo|",
        "POST /api/v1/echo|Authorization: Bearer wrong-key-0123456789\r\n",
        "POST /form|",
        "GET /health|",
        "GET /o/first|",
        "POST /api/v1/nowhere|Authorization: Bearer " + KEY + "\r\n",
      })
  void an_answer_before_100_continue_closes_the_connection_so_the_body_is_never_a_request(
      String route) throws IOException {
    String[] parts = route.split("\\|", -1);
    try (var connection = new RawConnection()) {
      connection.write(parts[0] + " HTTP/1.1\r\nHost: x\r\n" + parts[1]
          + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "
          + SMUGGLED.length() + "\r\n\r\n");
      Answer first = connection.read();
      assertThat(first.status()).isBetween(200, 499).isNotEqualTo(100);
      assertThat(first.header("connection")).isEqualToIgnoringCase("close");

      // the client sends its body anyway, then a request of its own on the same connection
      connection.writeQuietly(SMUGGLED + "GET /o/second HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(connection.readOrEnd()).as("the connection after %s", parts[0]).isNull();
    }
  }

  @Test
  void a_body_the_route_reads_after_100_continue_keeps_the_connection() throws IOException {
    try (var connection = new RawConnection()) {
      String body = "{\"a\":1}";
      connection.write("POST /api/v1/echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY
          + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "
          + body.length() + "\r\n\r\n");
      assertThat(connection.read().status()).isEqualTo(100);
      connection.write(body);
      Answer echoed = connection.read();
      assertThat(echoed.status()).isEqualTo(200);
      assertThat(echoed.body()).contains("\"a\":1");

      connection.write("GET /o/next HTTP/1.1\r\nHost: x\r\n\r\n");
      Answer next = connection.read();
      assertThat(next.status()).isEqualTo(200);
      assertThat(next.header("x-token")).isEqualTo("next");
    }
  }

  @Test
  void a_small_unread_body_without_expect_is_drained_and_the_connection_kept() throws IOException {
    try (var connection = new RawConnection()) {
      connection.write("GET /o/first HTTP/1.1\r\nHost: x\r\nContent-Length: " + SMUGGLED.length()
          + "\r\n\r\n" + SMUGGLED + "GET /o/second HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(connection.read().header("x-token")).isEqualTo("first");
      Answer second = connection.read();
      assertThat(second.header("x-token"))
          .as("the answer after a drained body belongs to the next request")
          .isEqualTo("second");
    }
  }

  @Test
  void an_oversized_body_refused_from_its_length_ends_the_connection() throws IOException {
    String padding = " ".repeat(100);
    String body = SMUGGLED + padding;
    try (var connection = new RawConnection()) {
      connection.write("POST /api/v1/echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY
          + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n");
      Answer refused = connection.read();
      assertThat(refused.status()).isEqualTo(413);
      assertThat(refused.header("connection")).isEqualToIgnoringCase("close");
      connection.writeQuietly(body);
      assertThat(connection.readOrEnd()).isNull();
    }
    assertThat(registry
            .get("tidings_http_connections_closed")
            .tag("reason", "answer_closes")
            .counter()
            .count())
        .isPositive();
  }

  @Test
  void an_unread_body_over_the_drain_limit_ends_the_connection() throws IOException {
    long length = FramingFilter.DRAIN_LIMIT + 1;
    try (var connection = new RawConnection()) {
      connection.write(
          "GET /o/first HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n");
      Answer first = connection.read();
      assertThat(first.header("x-token")).isEqualTo("first");
      assertThat(first.header("connection")).isEqualToIgnoringCase("close");
      connection.writeQuietly(SMUGGLED);
      assertThat(connection.readOrEnd()).isNull();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"/o/first", "/api/v1/nowhere", "/nowhere", "/health"})
  void an_answer_to_head_has_no_body_so_the_next_answer_is_read_whole(String path)
      throws IOException {
    try (var connection = new RawConnection()) {
      connection.write("HEAD " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY
          + "\r\n\r\nGET /o/second HTTP/1.1\r\nHost: x\r\n\r\n");
      connection.readHead();
      Answer second = connection.read();
      assertThat(second.status()).as("the answer after HEAD %s", path).isEqualTo(200);
      assertThat(second.header("x-token")).isEqualTo("second");
      assertThat(second.body()).isEqualTo("image");
    }
  }

  /** One answer: its status, headers (names in lower case) and body. */
  record Answer(int status, Map<String, String> headers, String body) {
    @Nullable String header(String name) {
      return headers.get(name);
    }
  }

  /** One HTTP/1.1 connection to the server, read and written byte by byte. */
  private static final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection() throws IOException {
      socket = new Socket("127.0.0.1", server.port());
      socket.setSoTimeout(5_000);
      in = socket.getInputStream();
      out = socket.getOutputStream();
    }

    void write(String text) throws IOException {
      out.write(text.getBytes(ISO_8859_1));
      out.flush();
    }

    /** Writes what the server may already have stopped reading: a refused write is its answer too. */
    void writeQuietly(String text) {
      try {
        write(text);
      } catch (IOException closed) {
        // the server closed the connection first
      }
    }

    /** An answer to HEAD: its status line and headers, no body whatever it declares. */
    void readHead() throws IOException {
      String statusLine = line();
      assertThat(statusLine).as("an answer to HEAD").isNotNull().startsWith("HTTP/1.1 ");
      for (String header = line(); header != null && !header.isEmpty(); header = line()) {
        // headers only
      }
    }

    Answer read() throws IOException {
      Answer answer = readOrEnd();
      assertThat(answer).as("an answer on the connection").isNotNull();
      return answer;
    }

    /** The next answer, or null when the server ended the connection instead. */
    @Nullable Answer readOrEnd() throws IOException {
      String statusLine;
      try {
        statusLine = line();
      } catch (SocketException reset) {
        return null;
      }
      if (statusLine == null) return null;
      int status = Integer.parseInt(statusLine.split(" ")[1]);
      Map<String, String> headers = new TreeMap<>();
      for (String header = line(); header != null && !header.isEmpty(); header = line()) {
        int colon = header.indexOf(':');
        headers.put(
            header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            header.substring(colon + 1).trim());
      }
      if (status == 100) return new Answer(status, headers, "");
      var body = new ByteArrayOutputStream();
      if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        for (int size; (size = Integer.parseInt(line().trim(), 16)) > 0; line()) {
          body.write(in.readNBytes(size));
        }
        line();
      } else {
        body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
      }
      return new Answer(status, headers, body.toString(ISO_8859_1));
    }

    private @Nullable String line() throws IOException {
      var line = new StringBuilder();
      int c;
      while ((c = in.read()) != -1) {
        if (c == '\n') return line.toString().stripTrailing();
        line.append((char) c);
      }
      return line.isEmpty() ? null : line.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
