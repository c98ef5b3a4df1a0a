package dev.tidings.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.config.Secret;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/** The HTTP edge's shared behaviour, through a real server on a free port and a real client. */
class HttpEdgeTest {
  private static final String KEY = "test-key-0123456789abcdef";
  private static final AtomicReference<Optional<String>> queueProblem =
      new AtomicReference<>(Optional.empty());
  private static HttpServer server;
  private static final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private static double earlierEchoes400;
  private static final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    RouteGroup echo = routing -> {
      routing.post(
          "/api/v1/echo",
          (request, response) ->
              JsonBodies.ok(response, Map.of("got", JsonBodies.read(request, 64))));
      routing.get("/api/v1/boom", (request, response) -> {
        throw new IllegalStateException("secret internal detail");
      });
      routing.get("/api/v1/invalid", (request, response) -> {
        throw new InvalidInputException(
            List.of("price: must be >= 0 but was -1", "currency: unknown code 'EUX'"));
      });
    };
    var checks = List.of(
        new DependencyCheck("postgresql", "test", Optional::empty),
        new DependencyCheck("queue", "test", queueProblem::get));
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        registry,
        checks,
        List.of(echo));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void api_without_a_key_is_refused_with_401_and_a_json_reason() throws Exception {
    var response =
        send(request("/api/v1/echo").POST(json("{}")).header("Content-Type", "application/json"));
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(body(response).path("error").asString()).isEqualTo("unauthorized");
  }

  @Test
  void api_with_a_wrong_key_is_refused() throws Exception {
    var response = send(request("/api/v1/echo")
        .POST(json("{}"))
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer not-the-key"));
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(body(response).path("detail").asString()).contains("not valid");
  }

  @Test
  void api_with_the_key_answers() throws Exception {
    var response = send(authorized("/api/v1/echo")
        .POST(json("{\"a\":1}"))
        .header("Content-Type", "application/json"));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(body(response).path("got").path("a").asInt()).isEqualTo(1);
  }

  @Test
  void malformed_json_is_a_400_that_says_so() throws Exception {
    var response = send(authorized("/api/v1/echo")
        .POST(json("{\"a\":"))
        .header("Content-Type", "application/json"));
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(body(response).path("detail").asString()).startsWith("malformed JSON");
  }

  @Test
  void a_body_that_is_not_json_is_a_415() throws Exception {
    var response = send(authorized("/api/v1/echo")
        .POST(json("a=1"))
        .header("Content-Type", "application/x-www-form-urlencoded"));
    assertThat(response.statusCode()).isEqualTo(415);
    assertThat(body(response).path("detail").asString()).contains("application/json");
  }

  @Test
  void a_body_over_the_limit_is_a_413_with_or_without_a_content_length() throws Exception {
    String big = "{\"a\":\"" + "x".repeat(200) + "\"}";
    var declared =
        send(authorized("/api/v1/echo").POST(json(big)).header("Content-Type", "application/json"));
    assertThat(declared.statusCode()).isEqualTo(413);
    var streamed = send(authorized("/api/v1/echo")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofInputStream(
            () -> new ByteArrayInputStream(big.getBytes(UTF_8)))));
    assertThat(streamed.statusCode()).isEqualTo(413);
    assertThat(body(streamed).path("error").asString()).isEqualTo("payload_too_large");
  }

  @Test
  void invalid_input_is_a_422_listing_every_problem() throws Exception {
    var response = send(authorized("/api/v1/invalid").GET());
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(body(response).path("detail").asString())
        .contains("price: must be >= 0")
        .contains("currency: unknown code");
  }

  @Test
  void a_server_failure_is_a_500_that_leaks_nothing_internal() throws Exception {
    var response = send(authorized("/api/v1/boom").GET());
    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body())
        .doesNotContain("secret internal detail")
        .doesNotContain("Exception");
    assertThat(body(response).path("detail").asString()).contains("reference");
  }

  @Test
  void an_unknown_route_is_a_json_404() throws Exception {
    var response = send(authorized("/api/v1/nothing-here").GET());
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(body(response).path("error").asString()).isEqualTo("not_found");
  }

  @Test
  void health_reports_each_dependency_and_turns_503_when_one_is_down() throws Exception {
    var up = send(request("/health").header("Authorization", "Bearer " + KEY).GET());
    assertThat(up.statusCode()).isEqualTo(200);
    assertThat(body(up).path("dependencies").path("postgresql").path("status").asString())
        .isEqualTo("up");
    queueProblem.set(Optional.of("connection refused"));
    try {
      var down =
          send(request("/health").header("Authorization", "Bearer " + KEY).GET());
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(body(down).path("dependencies").path("queue").path("problem").asString())
          .isEqualTo("connection refused");
    } finally {
      queueProblem.set(Optional.empty());
    }
  }

  @Test
  void a_node_whose_server_is_down_is_alive_but_not_ready() throws Exception {
    queueProblem.set(Optional.of("connection refused"));
    try {
      var live = send(request("/health/live").GET());
      assertThat(live.statusCode()).isEqualTo(200);
      assertThat(body(live).path("status").asString()).isEqualTo("up");
      var ready = send(request("/health/ready").GET());
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(body(ready).path("status").asString()).isEqualTo("down");
      assertThat(ready.body()).doesNotContain("connection refused");
    } finally {
      queueProblem.set(Optional.empty());
    }
    assertThat(send(request("/health/ready").GET()).statusCode()).isEqualTo(200);
  }

  @Test
  void openapi_document_is_public_and_metrics_count_requests() throws Exception {
    var openapi = send(request("/api/v1/openapi.json").GET());
    assertThat(openapi.statusCode()).isEqualTo(200);
    assertThat(body(openapi).path("openapi").asString()).startsWith("3.");
    send(request("/health").header("Authorization", "Bearer " + KEY).GET());
    var metrics =
        send(request("/metrics").header("Authorization", "Bearer " + KEY).GET());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/health\"");
  }

  @Test
  void a_uri_over_the_limit_is_a_414_with_the_json_error_body() throws Exception {
    var answer = raw("GET /api/v1/" + "x".repeat(20_000) + " HTTP/1.1\r\nHost: t\r\n\r\n");
    assertThat(answer.status()).isEqualTo(414);
    assertThat(answer.json().path("error").asString()).isEqualTo("uri_too_long");
    assertThat(answer.json().path("detail").asString()).isNotEmpty();
  }

  @Test
  void headers_over_the_limit_are_refused_with_the_json_error_body() throws Exception {
    var answer = raw("GET /health HTTP/1.1\r\nHost: t\r\nX-Big: " + "y".repeat(40_000)
        + "\r\nConnection: close\r\n\r\n");
    // Helidon answers 400 here, where 431 would say more; the body is ours either way
    assertThat(answer.status()).as(answer.body()).isIn(400, 431);
    assertThat(answer.json().path("error").asString())
        .isIn("bad_request", "request_header_fields_too_large");
  }

  @Test
  void a_malformed_request_is_a_400_with_the_json_error_body() throws Exception {
    var answer =
        raw("GET /health HTTP/1.1\r\nHost: t\r\nBad Header: y\r\nConnection: close\r\n\r\n");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.json().path("error").asString()).isEqualTo("bad_request");
  }

  @Test
  void a_query_that_cannot_be_decoded_is_a_400_with_the_json_error_body() throws Exception {
    var answer = raw("GET /api/v1/echo?a=%zz HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + KEY
        + "\r\nConnection: close\r\n\r\n");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.json().path("error").asString()).isEqualTo("bad_request");
  }

  @Test
  void a_nul_or_lone_surrogate_in_a_json_body_is_a_422_naming_its_path() throws Exception {
    var nul = send(authorized("/api/v1/echo")
        .POST(json("{\"a\":[\"ok\",{\"b\":\"x\\u0000\"}]}"))
        .header("Content-Type", "application/json"));
    assertThat(nul.statusCode()).isEqualTo(422);
    assertThat(body(nul).path("detail").asString()).contains("a[1].b").contains("NUL");
    var surrogate = send(authorized("/api/v1/echo")
        .POST(json("[\"\\udc00\"]"))
        .header("Content-Type", "application/json"));
    assertThat(surrogate.statusCode()).as(surrogate.body()).isEqualTo(422);
    assertThat(body(surrogate).path("detail").asString()).contains("[0]").contains("surrogate");
    var name = send(authorized("/api/v1/echo")
        .POST(json("{\"a\":{\"b\\u0000\":1}}"))
        .header("Content-Type", "application/json"));
    assertThat(name.statusCode()).as(name.body()).isEqualTo(422);
    assertThat(body(name).path("detail").asString()).contains("a field name in a ");
  }

  @Test
  void a_number_too_large_for_a_decimal_is_a_400_not_a_500() throws Exception {
    var huge = send(authorized("/api/v1/echo")
        .POST(json("{\"n\":1E83641111111111111111111111111111111}"))
        .header("Content-Type", "application/json"));
    assertThat(huge.statusCode()).as(huge.body()).isEqualTo(400);
    assertThat(body(huge).path("detail").asString()).contains("number too large");
  }

  @Test
  void every_json_answer_says_nosniff_so_an_echoed_path_is_never_read_as_html() throws Exception {
    var notFound =
        send(authorized("/api/v1/%3Cscript%3Ealert(1)%3C%2Fscript%3E").GET());
    assertThat(notFound.statusCode()).isEqualTo(404);
    assertThat(notFound.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(notFound.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/json");
    var refused = send(request("/api/v1/echo").GET());
    assertThat(refused.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    var ok = send(
        authorized("/api/v1/echo").POST(json("{}")).header("Content-Type", "application/json"));
    assertThat(ok.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
  }

  @Test
  void a_body_with_a_content_encoding_is_a_415_that_says_why() throws Exception {
    for (String encoding : List.of("gzip", "br", "identity, gzip")) {
      var answer = raw("POST /api/v1/echo HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + KEY
          + "\r\nContent-Type: application/json\r\nContent-Encoding: " + encoding
          + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
      assertThat(answer.status()).as(encoding).isEqualTo(415);
      assertThat(answer.json().path("detail").asString()).as(encoding).contains("Content-Encoding");
    }
  }

  @Test
  void a_client_that_aborts_mid_body_is_no_server_error_in_the_log() throws Exception {
    earlierEchoes400 = 0;
    earlierEchoes400 = abortedEchoes();
    var logged = new ListAppender<ILoggingEvent>();
    logged.start();
    var root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(logged);
    try {
      for (int i = 0; i < 3; i++) {
        try (var socket = new Socket("127.0.0.1", server.port())) {
          socket
              .getOutputStream()
              .write(("POST /api/v1/echo HTTP/1.1\r\nHost: t\r\n"
                      + "Authorization: Bearer " + KEY + "\r\nContent-Type: application/json\r\n"
                      + "Content-Length: 60\r\n\r\n{\"a\":\"only part")
                  .getBytes(UTF_8));
          socket.getOutputStream().flush();
        }
      }
      // the node notices each abort on its own thread, and answers it as a bad request
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (System.nanoTime() < deadline && abortedEchoes() < 3) Thread.sleep(20);
    } finally {
      root.detachAppender(logged);
    }
    assertThat(abortedEchoes()).isEqualTo(3);
    assertThat(logged.list)
        .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
        .extracting(ILoggingEvent::getFormattedMessage)
        .isEmpty();
  }

  /** Requests to the echo route answered 400 because their body ended early. */
  private static double abortedEchoes() {
    return registry
            .find("http.server.requests")
            .tag("route", "/api/v1/echo")
            .tag("status", "400")
            .timers()
            .stream()
            .mapToDouble(timer -> (double) timer.count())
            .sum()
        - earlierEchoes400;
  }

  private record Raw(int status, String body) {
    JsonNode json() {
      return Json.MAPPER.readTree(body);
    }
  }

  /** Sends bytes no well-behaved client would, and reads the answer until the server closes. */
  private static Raw raw(String request) throws Exception {
    try (var socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write(request.getBytes(UTF_8));
      socket.getOutputStream().flush();
      var out = new ByteArrayOutputStream();
      try {
        socket.getInputStream().transferTo(out);
      } catch (SocketTimeoutException | SocketException stopped) {
        // keep what arrived
      }
      String text = out.toString(UTF_8);
      int status = Integer.parseInt(text.substring(9, 12));
      int bodyAt = text.indexOf("\r\n\r\n");
      return new Raw(status, bodyAt < 0 ? "" : text.substring(bodyAt + 4));
    }
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10));
  }

  private static HttpRequest.Builder authorized(String path) {
    return request(path).header("Authorization", "Bearer " + KEY);
  }

  private static HttpRequest.BodyPublisher json(String text) {
    return HttpRequest.BodyPublishers.ofString(text);
  }

  private static HttpResponse<String> send(HttpRequest.Builder builder) throws Exception {
    return client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode body(HttpResponse<String> response) {
    return Json.MAPPER.readTree(response.body());
  }
}
