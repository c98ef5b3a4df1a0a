package dev.tidings.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.app.Node;
import dev.tidings.app.Role;
import dev.tidings.audience.AudienceJson;
import dev.tidings.catalog.ProductJson;
import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import dev.tidings.config.SettingsLoader;
import dev.tidings.delivery.webhook.Fixtures;
import dev.tidings.delivery.webhook.sendgrid.SendGridKeys;
import dev.tidings.fuzz.HttpOperations.Operation;
import dev.tidings.fuzz.HttpOperations.Parameter;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes a whole node over HTTP: every route of its own OpenAPI document, the email-facing routes and the
 * dashboard's forms get seeded, mutated requests (valid example bodies with fields deleted, duplicated or
 * retyped, numbers past every range, NUL and control characters, long strings, unicode oddities, broken
 * JSON, wrong content types, odd path and query parameters, with and without the API key; webhook bodies
 * signed with the configured test keys so that they reach the mapping). Request {@code i} is built from
 * its own seeded random source, so any request of a report can be rebuilt from its number.
 *
 * <p>The mutated requests go over kept-alive connections, one per worker and client address, a quarter of
 * those with a body offering it with {@code Expect: 100-continue} and sending it even when the answer came
 * first (see {@link KeptAliveClient}); each carries its own {@code X-Request-Id}, and an answer that names
 * another is a mismatch: the node took part of one request for another.
 *
 * <p>Afterwards: no answer was a 5xx, no answer was another request's, and nothing is half-written (every product and subscriber read back
 * through the API is valid under the API's own rules, the API's lists agree with the database, and no
 * refused all-or-nothing import left a row). {@code fuzz.http.requests} (15,000 by default) sets the
 * count, {@code fuzz.seed} the seed; the report goes to standard output and target/fuzz/http-report.txt.
 */
@StartsServers
class HttpFuzzingTest {
  private static final String KEY = "http-fuzz-api-key-0123456789";
  private static final String SECRET = "http-fuzz-secret-0123456789abcdef";
  private static final String MAILGUN_KEY = "http-fuzz-mailgun-key-0123456789";
  private static final String POSTMARK_USER = "fuzz";
  private static final String POSTMARK_PASSWORD = "fuzz-postmark-password-0123";
  private static final String SES_TOPIC =
      "arn:aws:sns:us-west-2:131990247566:dongie-standard-topic";
  private static final int REQUESTS = Integer.getInteger("fuzz.http.requests", 15_000);
  private static final int WORKERS = Integer.getInteger("fuzz.http.workers", 4);
  private static final long SEED = Long.getLong("fuzz.seed", 20_260_101L);
  private static final int MINIMISE_BUDGET = 120;

  /** Of the requests with a body, the share in percent offered with {@code Expect: 100-continue}. */
  private static final int EXPECT_PERCENT = 25;

  @TempDir
  static Path dataDir;

  private static Node node;
  private static HttpClient http;

  /**
   * Requests that do not carry the right key come from another loopback address: the node throttles
   * wrong credentials per client address, and from the fuzzer's own address that would turn every later
   * request into a 429 and hide the routes behind it.
   */
  private static HttpClient outsider;

  private static String base;
  private static String token;
  private static String messageId;
  private static long campaignId;
  private static long secondCampaignId;
  private static long draftId;
  private static long journeyId;
  private static String sessionCookie = "";
  private static String formToken = "";
  private static List<Operation> operations;

  /** What was sent, enough to send it again and to print it. */
  @SuppressWarnings("ArrayRecordComponent") // compared by nobody, only sent again and printed
  record Sent(
      int index,
      String route,
      String mutation,
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      byte[] body) {
    Sent withBody(byte[] other) {
      return new Sent(index, route, mutation, method, pathAndQuery, headers, other);
    }

    Sent withPath(String other) {
      return new Sent(index, route, mutation, method, other, headers, body);
    }

    String describe() {
      var out = new StringBuilder();
      out.append("#")
          .append(index)
          .append(' ')
          .append(method)
          .append(' ')
          .append(shorten(pathAndQuery, 300));
      headers.forEach((name, value) -> out.append("\n      ")
          .append(name)
          .append(": ")
          .append(
              name.equals("Authorization") && value.startsWith("Bearer " + KEY)
                  ? "Bearer <api key>"
                  : shorten(value, 120)));
      if (body.length > 0)
        out.append("\n      body (")
            .append(body.length)
            .append(" bytes): ")
            .append(Minimizer.show(body));
      return out.toString();
    }
  }

  @BeforeAll
  static void start() throws Exception {
    String url = TestDatabases.embeddedServer().connectionSpec(8).jdbcUrl();
    Path sesCert = dataDir.resolve("ses-signing.pem");
    Files.write(
        sesCert,
        Fixtures.bytes(
            "amazon-ses-sns/sns/certs/SimpleNotificationService-7506a1e35b36ef5a444dd1a8e7cc3ed8.pem"));
    JsonNode vectors = Fixtures.json("sendgrid/signed-event-webhook/vectors.json");
    String sendgridKey = "";
    for (JsonNode vector : vectors)
      if (vector.path("id").asString("").startsWith("vector-B"))
        sendgridKey = vector.path("public_key_base64").asString();
    var settings = SettingsLoader.load(Map.ofEntries(
        Map.entry("TIDINGS_DATA_DIR", dataDir.toString()),
        Map.entry("TIDINGS_DB_URL", url),
        Map.entry("TIDINGS_DB_USER", "postgres"),
        Map.entry("TIDINGS_API_KEY", KEY),
        Map.entry("TIDINGS_SECRET", SECRET),
        Map.entry("TIDINGS_MAILGUN_SIGNING_KEY", MAILGUN_KEY),
        Map.entry("TIDINGS_POSTMARK_WEBHOOK_USER", POSTMARK_USER),
        Map.entry("TIDINGS_POSTMARK_WEBHOOK_PASSWORD", POSTMARK_PASSWORD),
        Map.entry("TIDINGS_SENDGRID_WEBHOOK_PUBLIC_KEY", sendgridKey),
        Map.entry("TIDINGS_SES_TOPIC_ARN", SES_TOPIC),
        Map.entry("TIDINGS_SES_SIGNING_CERT_FILE", sesCert.toString())));
    node = Node.of(settings);
    node.start(Role.SERVE, 0);
    base = "http://127.0.0.1:" + node.port();
    http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    outsider = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER)
        .localAddress(InetAddress.getByName("127.0.0.2"))
        .build();
    seedState();
    var document = Json.MAPPER.readTree(send(get("/api/v1/openapi.json", true)).body());
    operations = new ArrayList<>(HttpOperations.of(document));
    operations.addAll(dashboardOperations());
  }

  @AfterAll
  static void stop() {
    if (node != null) node.close();
  }

  /** Each route's unmutated example, so that the mutations start from requests the node takes. */
  @Test
  void the_unmutated_example_of_each_route_is_answered_without_a_5xx() throws Exception {
    List<String> refused = new ArrayList<>();
    for (int i = 0; i < operations.size(); i++) {
      Sent request = build(i, "valid");
      var response = send(toHttp(request));
      if (response.statusCode() >= 400)
        refused.add(response.statusCode() + " " + request.describe() + "\n      answer: "
            + shorten(response.body(), 300));
    }
    System.out.println("unmutated examples refused (" + refused.size() + " of " + operations.size()
        + " routes):\n  " + String.join("\n  ", refused));
    assertThat(refused).noneMatch(line -> line.startsWith("5"));
  }

  /**
   * Explicit JSON null in place of each value of each route's example body, one at a time and at every
   * depth: a reader takes null as "not given" or refuses it naming the field, never with a 5xx. Webhook
   * bodies are signed again after the change, so that they reach the mapping (SES's are signed by a key
   * the test does not hold: they stop at the signature).
   */
  @Test
  void a_json_null_in_place_of_any_value_of_any_routes_example_is_answered_without_a_5xx()
      throws Exception {
    List<String> failures = new ArrayList<>();
    var tried = new HashSet<String>();
    int sent = 0;
    // three draws per route: a route that takes several content types gets each of them in turn
    for (int i = 0; i < operations.size() * 3; i++) {
      Sent valid = build(i, "valid");
      String type = valid.headers().getOrDefault("Content-Type", "");
      var document = Inputs.json(valid.body());
      if (!type.contains("json") || document.isEmpty() || !tried.add(valid.route() + " " + type))
        continue;
      for (JsonNode nulled : withOneNull(document.get())) {
        Sent request = signedAgain(valid, nulled, i * 1_000 + sent);
        int status = status(request);
        sent++;
        if (status >= 500 || status < 0) failures.add(status + " " + request.describe());
      }
    }
    System.out.println("JSON null sweep: " + sent + " requests over " + tried.size() + " bodies");
    assertThat(sent).isGreaterThan(100);
    assertThat(failures).as("answers of 5xx (or none) in %d requests", sent).isEmpty();
  }

  /** A copy of {@code document} for each value in it (field or element, any depth) with that one null. */
  private static List<JsonNode> withOneNull(JsonNode document) {
    List<JsonNode> out = new ArrayList<>();
    collectNulled(document, document, out);
    return out;
  }

  private static void collectNulled(JsonNode root, JsonNode node, List<JsonNode> out) {
    if (node instanceof ObjectNode object) {
      for (String name : List.copyOf(object.propertyNames())) {
        JsonNode value = object.get(name);
        if (value.isNull()) continue;
        object.putNull(name);
        out.add(root.deepCopy());
        object.set(name, value);
        collectNulled(root, value, out);
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        JsonNode value = array.get(i);
        if (value.isNull()) continue;
        array.set(i, NULL);
        out.add(root.deepCopy());
        array.set(i, value);
        collectNulled(root, value, out);
      }
    }
  }

  private static final JsonNode NULL = JsonNodeFactory.instance.nullNode();

  /** {@code valid} with {@code body} in place of its own, signed again where the test can sign it. */
  private static Sent signedAgain(Sent valid, JsonNode body, int nonce) {
    JsonNode document = body;
    if (valid.route().equals("POST /webhooks/mailgun")
        && document.path("signature").isObject()
        && document.path("signature").path("timestamp").isString()) {
      // a fresh token each time: the replay guard refuses a token it has seen
      ObjectNode copy = (ObjectNode) document.deepCopy();
      ObjectNode block = (ObjectNode) copy.get("signature");
      String timestamp = block.get("timestamp").asString();
      String fresh = "null-sweep-" + nonce + "-" + System.nanoTime();
      block.put("token", fresh);
      block.put("signature", hmacHex(MAILGUN_KEY, timestamp + fresh));
      document = copy;
    }
    byte[] bytes = JsonMutations.write(document).getBytes(UTF_8);
    Map<String, String> headers = new LinkedHashMap<>(valid.headers());
    if (valid.route().equals("POST /webhooks/sendgrid")) {
      String timestamp = Long.toString(Instant.now().getEpochSecond());
      headers.put(SendGridKeys_SIGNATURE, SendGridKeys.sign(timestamp, bytes));
      headers.put(SendGridKeys_TIMESTAMP, timestamp);
    }
    return new Sent(
        valid.index(),
        valid.route(),
        "json-null",
        valid.method(),
        valid.pathAndQuery(),
        Map.copyOf(headers),
        bytes);
  }

  @Test
  void every_route_answers_mutated_requests_without_a_5xx_and_leaves_no_half_written_state()
      throws Exception {
    Map<String, Map<String, AtomicInteger>> byRoute = new ConcurrentHashMap<>();
    Map<String, Sent> firstFailure = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> failureCounts = new ConcurrentHashMap<>();
    var refusedAllOrNothing = new ConcurrentLinkedQueue<Integer>();
    var sent = new AtomicLong();
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
    List<Future<?>> workers = new ArrayList<>();
    var next = new AtomicInteger();
    var mismatches = new ConcurrentLinkedQueue<String>();
    var expected = new AtomicInteger();
    var sentAgain = new AtomicInteger();
    for (int w = 0; w < WORKERS; w++) {
      workers.add(pool.submit(() -> {
        int i;
        try (var keyed = new KeptAliveClient(base, InetAddress.getByName("127.0.0.1"));
            var stranger = new KeptAliveClient(base, InetAddress.getByName("127.0.0.2"))) {
          while ((i = next.getAndIncrement()) < REQUESTS) {
            Sent request = build(i);
            // a share of the bodies is offered with Expect: 100-continue, as careful clients and
            // attackers both do; a body past the node's limit always is (a careful client's upload)
            boolean expect = request.body().length > Settings.DEFAULT_MAX_BODY_BYTES
                || new Random(SEED ^ (31L * i)).nextInt(100) < EXPECT_PERCENT;
            var exchange = (clientFor(request) == http ? keyed : stranger)
                .exchange(request, "fuzz-" + i, expect);
            int status = exchange.status();
            if (expect && request.body().length > 0) expected.incrementAndGet();
            if (exchange.sentAgain()) sentAgain.incrementAndGet();
            if (exchange.mismatched())
              mismatches.add(request.describe() + "\n      answered as " + exchange.answeredId()
                  + " with " + status);
            sent.incrementAndGet();
            byRoute
                .computeIfAbsent(request.route(), r -> new ConcurrentHashMap<>())
                .computeIfAbsent(statusClass(status), c -> new AtomicInteger())
                .incrementAndGet();
            if (request.route().endsWith("/import")
                && request.pathAndQuery().contains("mode=all-or-nothing")
                && status / 100 != 2) refusedAllOrNothing.add(i);
            if (status >= 500 || status < 0) {
              String kind = request.route() + " -> " + (status < 0 ? "no answer" : status) + " ["
                  + request.mutation() + "]";
              failureCounts.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
              firstFailure.merge(
                  kind,
                  request,
                  (a, b) -> a.body().length + a.pathAndQuery().length()
                          <= b.body().length + b.pathAndQuery().length()
                      ? a
                      : b);
            }
          }
        }
        return null;
      }));
    }
    for (Future<?> worker : workers) worker.get();
    pool.shutdown();
    double seconds = (System.nanoTime() - started) / 1e9;

    List<String> invariants = invariants(List.copyOf(refusedAllOrNothing));
    String report = report(byRoute, failureCounts, firstFailure, sent.get(), seconds, invariants)
        + "\n" + expected.get() + " requests offered their body with Expect: 100-continue over"
        + " kept-alive connections; " + sentAgain.get() + " sent again on a fresh connection after"
        + " the kept one was found closed; answers that belonged to another request: "
        + mismatches.size() + "\n"
        + String.join("\n", mismatches.stream().limit(20).toList()) + "\n";
    System.out.println(report);
    Path out = Path.of("target", "fuzz");
    Files.createDirectories(out);
    Files.writeString(out.resolve("http-report.txt"), report);

    long fives = failureCounts.values().stream().mapToLong(AtomicInteger::get).sum();
    assertThat(sent.get()).isEqualTo(REQUESTS);
    assertThat(invariants).as("state after %d requests", sent.get()).isEmpty();
    assertThat(fives)
        .as("answers of 5xx (or none) in %d requests; the report above lists each kind", sent.get())
        .isZero();
    assertThat(mismatches)
        .as("answers on a kept-alive connection that belonged to another request")
        .isEmpty();
    assertThat(expected.get()).as("requests offered with Expect: 100-continue").isPositive();
  }

  // ---------------------------------------------------------------------------------------------
  // Building requests

  private static final List<String> MUTATIONS = List.of(
      "valid",
      "json-fields",
      "json-fields",
      "json-fields",
      "json-whole",
      "bytes",
      "bytes",
      "empty-body",
      "content-type",
      "path",
      "path",
      "query",
      "query",
      "no-key",
      "wrong-key",
      "headers");

  static Sent build(int index) {
    return build(index, null);
  }

  static Sent build(int index, String forced) {
    var random = new Random(SEED * 1_000_003L + index);
    Operation operation = operations.get(index % operations.size());
    String drawn = MUTATIONS.get(random.nextInt(MUTATIONS.size()));
    String mutation = forced == null ? drawn : forced;
    Map<String, String> headers = new LinkedHashMap<>();
    boolean api = operation.template().startsWith("/api/");
    if (api || operation.template().equals("/metrics"))
      headers.put("Authorization", "Bearer " + KEY);
    boolean dashboard = !api
        && !operation.template().startsWith("/webhooks/")
        && !operation.template().matches("/[ocpu]/.*");
    if (dashboard && !sessionCookie.isEmpty()) headers.put("Cookie", sessionCookie);
    if (dashboard && operation.method().equals("POST")) headers.put("Origin", base);
    if (mutation.equals("no-key")) {
      headers.remove("Authorization");
      headers.remove("Cookie");
    }
    if (mutation.equals("wrong-key"))
      headers.put(
          "Authorization",
          random.nextBoolean()
              ? "Bearer " + KEY.substring(1)
              : pick(
                  random,
                  List.of(
                      "Bearer",
                      "Basic Zm9vOmJhcg==",
                      "bearer " + KEY,
                      "Bearer " + KEY + " x",
                      "Bearer " + "k".repeat(5000))));

    // path
    String path = operation.template();
    for (String name : HttpOperations.pathNames(operation.template())) {
      String value = validPathValue(operation.method(), operation.template(), name, index);
      if (mutation.equals("path") && random.nextInt(3) != 0) value = oddPathValue(random, value);
      else value = encode(value);
      path = path.replace("{" + name + "}", value);
    }
    // query
    List<String> query = new ArrayList<>();
    for (Parameter parameter : operation.in("query")) {
      String value = validQueryValue(parameter.name());
      if (mutation.equals("query") && random.nextBoolean()) value = oddQueryValue(random);
      if (value != null) query.add(encode(parameter.name()) + "=" + value);
    }
    if (operation.template().endsWith("/import") && random.nextInt(3) != 0)
      query.add("mode=" + (mutation.equals("query") ? oddQueryValue(random) : "all-or-nothing"));
    if (mutation.equals("query")) {
      query.add(encode(pick(random, List.of("limit", "after", "mode", "x", "", "a\u0000", "limit")))
          + "=" + oddQueryValue(random));
    }
    String pathAndQuery = query.isEmpty() ? path : path + "?" + String.join("&", query);

    // body
    byte[] body = new byte[0];
    String contentType = null;
    if (!operation.bodies().isEmpty()
        || operation.method().equals("POST")
        || operation.method().equals("PUT")
        || operation.method().equals("PATCH")) {
      List<String> types = new ArrayList<>(operation.bodies().keySet());
      contentType = types.isEmpty() ? "application/json" : types.get(random.nextInt(types.size()));
      body = validBody(operation, contentType, index);
      switch (mutation) {
        case "json-fields" -> {
          var parsed = Inputs.json(body);
          if (parsed.isPresent())
            body =
                JsonMutations.write(JsonMutations.mutate(parsed.get(), random)).getBytes(UTF_8);
          else body = new SeedMutator(List.of(body), random.nextLong()).next();
        }
        case "json-whole" ->
          body = JsonMutations.write(JsonMutations.oddValue(random)).getBytes(UTF_8);
        case "bytes" -> body = new SeedMutator(List.of(body), random.nextLong()).next();
        case "empty-body" -> body = new byte[0];
        case "content-type" ->
          contentType = pick(
              random,
              List.of(
                  "text/plain",
                  "application/x-www-form-urlencoded",
                  "",
                  "application/json; charset=latin1",
                  "application/json;;",
                  "*/*",
                  "application/xml",
                  "text/csv",
                  "application/x-ndjson",
                  "multipart/form-data; boundary=x",
                  "application/json; charset=\"utf-8",
                  "x/" + "y".repeat(3000)));
        default -> {}
      }
    }
    if (contentType != null && !contentType.isEmpty()) headers.put("Content-Type", contentType);
    if (mutation.equals("headers")) {
      headers.put(
          pick(
              random,
              List.of(
                  "Accept",
                  "X-Forwarded-For",
                  "User-Agent",
                  "Cookie",
                  "Accept-Language",
                  "Origin",
                  "Referer")),
          pick(
              random,
              List.of(
                  "",
                  "*/*;q=nan",
                  "../..",
                  "a".repeat(6000),
                  "é😀",
                  "tidings_session=" + "x".repeat(500),
                  "http://evil.example",
                  "1.2.3.4, ::1, unknown")));
    }
    signWebhook(operation, headers, body, random);
    return new Sent(
        index,
        operation.route(),
        mutation,
        operation.method(),
        pathAndQuery,
        Map.copyOf(headers),
        body);
  }

  /** Webhook bodies signed (most of the time) with the configured test credentials, so they reach the mapping. */
  private static void signWebhook(
      Operation operation, Map<String, String> headers, byte[] body, Random random) {
    boolean sign = random.nextInt(4) != 0;
    switch (operation.template()) {
      case "/webhooks/postmark" -> {
        if (sign)
          headers.put(
              "Authorization",
              "Basic "
                  + Base64.getEncoder()
                      .encodeToString((POSTMARK_USER + ":" + POSTMARK_PASSWORD).getBytes(UTF_8)));
      }
      case "/webhooks/sendgrid" -> {
        if (sign) {
          String timestamp = Long.toString(Instant.now().getEpochSecond());
          headers.put(SendGridKeys_SIGNATURE, SendGridKeys.sign(timestamp, body));
          headers.put(SendGridKeys_TIMESTAMP, timestamp);
        }
      }
      default -> {}
    }
  }

  private static final String SendGridKeys_SIGNATURE = "X-Twilio-Email-Event-Webhook-Signature";
  private static final String SendGridKeys_TIMESTAMP = "X-Twilio-Email-Event-Webhook-Timestamp";

  private static byte[] validBody(Operation operation, String contentType, int index) {
    String t = operation.template();
    String m = operation.method();
    String prefix = "imp-" + index + "-";
    if (t.endsWith("/import") && contentType.equals("text/csv")) {
      return (switch (t) {
            case "/api/v1/products/import" ->
              "id,title,price,currency,imageUrl,landingUrl\n" + prefix
                  + "1,Shirt,9.90,EUR,https://img.example/1.png,https://shop.example/1\n" + prefix
                  + "2,Scarf,5,GBP,https://img.example/2.png,https://shop.example/2\n";
            case "/api/v1/subscribers/import" ->
              "id,email,name,country\n" + prefix + "1," + prefix + "1@example.com,Ada,GB\n" + prefix
                  + "2," + prefix + "2@example.com,Grace,US\n";
            case "/api/v1/follows/import" ->
              "subscriberId,targetType,targetId\ns-1,brand," + prefix + "b\ns-2,category," + prefix
                  + "c\n";
            default -> "id\n1\n";
          })
          .getBytes(UTF_8);
    }
    if (t.endsWith("/import") && !t.startsWith("/api/v1/content")) {
      return (switch (t) {
            case "/api/v1/products/import" ->
              product(prefix + "1") + "\n" + product(prefix + "2") + "\n";
            case "/api/v1/subscribers/import" ->
              subscriber(prefix + "1") + "\n" + subscriber(prefix + "2") + "\n";
            case "/api/v1/follows/import" ->
              "{\"subscriberId\":\"s-1\",\"targetType\":\"brand\",\"targetId\":\"" + prefix
                  + "b\"}\n";
            default -> "{}\n";
          })
          .getBytes(UTF_8);
    }
    String json = switch (m + " " + t) {
      case "POST /api/v1/products" -> product("p-" + index);
      case "PUT /api/v1/products/{id}" -> product("p-1");
      case "POST /api/v1/subscribers" -> subscriber("s-" + (100 + index));
      case "PUT /api/v1/subscribers/{id}" -> subscriber("s-1");
      case "PUT /api/v1/suppressions/{email}" -> "{\"reason\":\"manual\"}";
      case "POST /api/v1/events" ->
        contentType.contains("ndjson")
            ? event(index) + "\n" + event(index + 1)
            : "[" + event(index) + "]";
      case "POST /api/v1/campaigns", "PUT /api/v1/campaigns/{id}" -> campaign();
      case "PATCH /api/v1/campaigns/{id}" ->
        "{\"subject\":\"New subject {{subscriber.name}}\",\"slots\":3}";
      case "POST /api/v1/campaigns/{id}/trigger" -> "{\"subscriberId\":\"s-1\"}";
      case "POST /api/v1/campaigns/{id}/test" ->
        "{\"to\":\"ada@example.com\",\"subscriberId\":\"s-1\"}";
      case "POST /api/v1/campaign-blocks" -> "{\"type\":\"slots\",\"count\":3}";
      case "POST /api/v1/delivery-events" ->
        "[{\"messageId\":\"" + messageId
            + "\",\"status\":\"delivered\",\"timestamp\":\"2026-01-02T03:04:05Z\"}]";
      case "POST /webhooks/sendgrid" ->
        new String(Fixtures.bytes("sendgrid/events/docs-bounce-type-bounce.json"), UTF_8);
      case "POST /webhooks/postmark" ->
        new String(Fixtures.bytes("postmark/anymail-tests/Delivery-delivered-event.json"), UTF_8);
      case "POST /webhooks/ses" ->
        new String(
            Fixtures.bytes("amazon-ses-sns/sns/messages/2026-notification-v1-no-subject.json"),
            UTF_8);
      case "POST /webhooks/mailgun" ->
        mailgun(
            new String(Fixtures.bytes("mailgun/events/docs-event-delivered.json"), UTF_8), index);
      case "PUT /api/v1/content/{id}" -> content("c-1");
      case "POST /api/v1/content/import" ->
        "[" + content("c-" + (100 + index)).replaceFirst("}$", ",\"published\":true}") + "]";
      case "PUT /api/v1/recommenders/{name}" ->
        "{\"enabled\":true,\"weight\":1.0,\"params\":{\"halfLifeDays\":7}}";
      case "POST /signin" -> "key=" + URLEncoder.encode(KEY, UTF_8) + "&next=%2Fcampaigns";
      case "POST /u/{token}" -> "List-Unsubscribe=One-Click";
      case "POST /subscribers/{id}/suppression/add" -> form("reason=manual");
      case "POST /subscribers/{id}/suppression/lift",
          "POST /campaigns/{id}/send",
          "POST /campaigns/{id}/unschedule",
          "POST /campaigns/{id}/pause",
          "POST /campaigns/{id}/resume",
          "POST /campaigns/{id}/cancel",
          "POST /campaigns/{id}/delete" -> form("");
      case "POST /campaigns/{id}/schedule" -> form("at=2030-01-01T09%3A00%3A00Z");
      case "POST /journeys/{id}/activate",
          "POST /journeys/{id}/pause",
          "POST /journeys/{id}/drain" -> form("");
      // every other one refused, so the run does not make a journey and its campaigns each time
      case "POST /journeys/new" ->
        form("template=welcome&fromName=Fuzz&fromEmail="
            + (index % 2 == 0 ? "news%40shop.example" : "not-an-address"));
      case "POST /journeys/{id}/edit" ->
        form("intent=" + (index % 3 == 0 ? "rows" : "save")
            + "&rows=3&name=Fuzz&trigger.type=did&trigger.activity=add_to_cart&trigger.times=1"
            + "&trigger.within=1&trigger.withinUnit=hours&entry.reentry=7&entry.reentryUnit=days"
            + "&s0.id=wait&s0.type=wait&s0.until=for&s0.for=1&s0.forUnit=hours&s0.next=split"
            + "&s1.id=split&s1.type=split&s1.arms=2&s1.a0.label=A&s1.a0.percent=50&s1.a0.next=send"
            + "&s1.a1.label=B&s1.a1.percent=50&s2.id=send&s2.type=send&s2.campaign=" + campaignId
            + "&goal=purchase&holdOut=10");
      case "POST /campaigns/{id}/test" -> form("to=fuzz%40example.com&subscriber=s-1");
      case "POST /campaigns/audience-count" -> form("c0.type=country&c0.value=GB");
      case "POST /campaigns/new", "POST /campaigns/{id}/edit" ->
        form("intent=" + List.of("save", "count", "block").get(index % 3)
            + "&name=Fuzz&fromEmail=news%40shop.example&subject=Hi+%7B%7Bsubscriber.name%7D%7D"
            + "&html=%3Cp%3E%7B%7B%23slots%7D%7D%3Ca+href%3D%22%7B%7BclickUrl%7D%7D%22%3Ex%3C%2Fa%3E"
            + "%7B%7B%2Fslots%7D%7D%3Ca+href%3D%22%7B%7BunsubscribeUrl%7D%7D%22%3Eu%3C%2Fa%3E%3C%2Fp%3E"
            + "&text=%7B%7BunsubscribeUrl%7D%7D&slots=3&c0.type=country&c0.value=GB"
            + "&block=button&blockLabel=Shop&blockUrl=https%3A%2F%2Fshop.example%2F");
      default -> {
        JsonNode example = operation.bodies().get(contentType);
        yield example == null ? "{}" : JsonMutations.write(example);
      }
    };
    return json.getBytes(UTF_8);
  }

  /** A dashboard form's fields with the signed-in session's token, as its page would write them. */
  private static String form(String fields) {
    return "_csrf=" + URLEncoder.encode(formToken, UTF_8) + (fields.isEmpty() ? "" : "&" + fields);
  }

  /** A Mailgun body whose signature block is valid for the configured key, with a fresh token. */
  private static String mailgun(String event, int index) {
    String timestamp = Long.toString(Instant.now().getEpochSecond());
    String token = "fuzz-token-" + index + "-"
        + HexFormat.of().formatHex(sha256(Integer.toString(index))).substring(0, 20);
    return "{\"signature\":{\"timestamp\":\"" + timestamp + "\",\"token\":\"" + token
        + "\",\"signature\":\"" + hmacHex(MAILGUN_KEY, timestamp + token) + "\"},\"event-data\":"
        + event + "}";
  }

  private static String validPathValue(String method, String template, String name, int index) {
    // what deletes or ends a fixture works on the second one,
    // so that the first stays for every other route
    boolean destructive = method.equals("DELETE")
        || template.endsWith("/cancel")
        || template.matches("/campaigns/\\{id}/(send|schedule|unschedule|pause|resume|delete)");
    return switch (name) {
      case "id" -> {
        // the editor's pages get a draft of their own: the API's send runs the first campaign
        if (template.matches("/campaigns/\\{id}/(edit|confirm|preview.*|test)"))
          yield Long.toString(draftId);
        if (template.startsWith("/journeys") || template.startsWith("/api/v1/journeys"))
          yield Long.toString(journeyId);
        if (template.startsWith("/api/v1/campaigns") || template.startsWith("/campaigns"))
          yield Long.toString(destructive ? secondCampaignId : campaignId);
        if (template.startsWith("/api/v1/products")) yield destructive ? "p-2" : "p-1";
        if (template.startsWith("/api/v1/subscribers")) yield destructive ? "s-2" : "s-1";
        if (template.startsWith("/api/v1/messages")) yield messageId;
        if (template.startsWith("/api/v1/content")) yield destructive ? "c-2" : "c-1";
        yield "s-1";
      }
      case "token" -> token;
      case "slot" -> Integer.toString(index % 3);
      case "email" -> "ada@example.com";
      case "type" -> "brand";
      case "target" -> "Velin";
      case "name" ->
        template.contains("recommenders")
            ? "popularity"
            : template.contains("campaign-templates") ? "open-time-picks" : "fuzz";
      case "item" -> "p-1";
      case "configuration" -> "cfg-1";
      case "file" -> "shirt.svg";
      default -> "x";
    };
  }

  private static String oddPathValue(Random random, String valid) {
    return switch (random.nextInt(14)) {
      case 0 -> "%00";
      case 1 -> encode(valid) + "%00";
      case 2 -> "x".repeat(2000 + random.nextInt(8000));
      case 3 -> encode("é😀" + valid);
      case 4 -> "%2e%2e";
      case 5 -> "%2F";
      case 6 -> "-1";
      case 7 -> "9223372036854775808";
      case 8 -> "1e400";
      case 9 -> "%FF%FE";
      case 10 -> encode(valid.substring(0, valid.length() / 2));
      case 11 -> "%0d%0aX-Injected:%201";
      case 12 -> encode(valid + "\u202e");
      default -> "0";
    };
  }

  private static String validQueryValue(String name) {
    return switch (name) {
      case "limit", "n" -> "10";
      case "minutes" -> "60";
      case "since" -> "7d";
      case "from" -> "2026-01-01T00:00:00Z";
      case "to" -> "2026-01-02T00:00:00Z";
      case "subscriber" -> "s-1";
      case "alpha" -> "0.05";
      case "correction" -> "item";
      case "minImpressions" -> "10";
      case "key" -> "views";
      case "template" -> "open-time-picks";
      case "step" -> "reminder";
      case "version" -> "1";
      case "action" -> "schedule";
      case "at" -> "2030-01-01T09:00";
      default -> null;
    };
  }

  private static String oddQueryValue(Random random) {
    return pick(
        random,
        List.of(
            "-1",
            "0",
            "1e400",
            "9223372036854775808",
            "-9223372036854775809",
            "NaN",
            "abc",
            "%00",
            "",
            "x".repeat(5000),
            encode("é😀"),
            "2026-13-45T99:00:00Z",
            "true",
            "%FF",
            "1.5",
            "+1",
            "0x10",
            "%0a"));
  }

  /** A dashboard form posted to {@code template}. */
  private static Operation form(String template, boolean names) {
    return new Operation(
        "POST",
        template,
        names ? List.of(new Parameter("id", "path")) : List.of(),
        Map.of("application/x-www-form-urlencoded", Json.MAPPER.createObjectNode()));
  }

  private static List<Operation> dashboardOperations() {
    return List.of(
        new Operation("GET", "/signin", List.of(new Parameter("next", "query")), Map.of()),
        new Operation(
            "POST",
            "/signin",
            List.of(),
            Map.of("application/x-www-form-urlencoded", Json.MAPPER.createObjectNode())),
        new Operation(
            "POST",
            "/signout",
            List.of(),
            Map.of("application/x-www-form-urlencoded", Json.MAPPER.createObjectNode())),
        new Operation("GET", "/campaigns/{id}", List.of(new Parameter("id", "path")), Map.of()),
        new Operation(
            "GET", "/campaigns/new", List.of(new Parameter("template", "query")), Map.of()),
        form("/campaigns/new", false),
        form("/campaigns/audience-count", false),
        new Operation(
            "GET", "/campaigns/{id}/edit", List.of(new Parameter("id", "path")), Map.of()),
        form("/campaigns/{id}/edit", true),
        new Operation(
            "GET",
            "/campaigns/{id}/confirm",
            List.of(
                new Parameter("id", "path"),
                new Parameter("action", "query"),
                new Parameter("at", "query")),
            Map.of()),
        new Operation(
            "GET",
            "/campaigns/{id}/preview",
            List.of(new Parameter("id", "path"), new Parameter("subscriber", "query")),
            Map.of()),
        new Operation(
            "GET",
            "/campaigns/{id}/preview/email",
            List.of(new Parameter("id", "path"), new Parameter("subscriber", "query")),
            Map.of()),
        form("/campaigns/{id}/test", true),
        form("/campaigns/{id}/send", true),
        form("/campaigns/{id}/schedule", true),
        form("/campaigns/{id}/unschedule", true),
        form("/campaigns/{id}/pause", true),
        form("/campaigns/{id}/resume", true),
        form("/campaigns/{id}/cancel", true),
        form("/campaigns/{id}/delete", true),
        new Operation("GET", "/journeys", List.of(new Parameter("after", "query")), Map.of()),
        new Operation(
            "GET", "/journeys/new", List.of(new Parameter("template", "query")), Map.of()),
        form("/journeys/new", false),
        new Operation(
            "GET",
            "/journeys/{id}",
            List.of(new Parameter("id", "path"), new Parameter("version", "query")),
            Map.of()),
        form("/journeys/{id}/activate", true),
        form("/journeys/{id}/pause", true),
        form("/journeys/{id}/drain", true),
        new Operation(
            "GET",
            "/journeys/{id}/edit",
            List.of(
                new Parameter("id", "path"),
                new Parameter("step", "query"),
                new Parameter("subscriber", "query")),
            Map.of()),
        form("/journeys/{id}/edit", true),
        new Operation("GET", "/explorer", List.of(new Parameter("subscriber", "query")), Map.of()),
        new Operation("GET", "/system", List.of(), Map.of()),
        new Operation(
            "GET",
            "/subscribers",
            List.of(new Parameter("q", "query"), new Parameter("after", "query")),
            Map.of()),
        new Operation("GET", "/subscribers/{id}", List.of(new Parameter("id", "path")), Map.of()),
        new Operation(
            "POST",
            "/subscribers/{id}/suppression/add",
            List.of(new Parameter("id", "path")),
            Map.of("application/x-www-form-urlencoded", Json.MAPPER.createObjectNode())),
        new Operation(
            "POST",
            "/subscribers/{id}/suppression/lift",
            List.of(new Parameter("id", "path")),
            Map.of("application/x-www-form-urlencoded", Json.MAPPER.createObjectNode())),
        new Operation(
            "POST",
            "/u/{token}",
            List.of(new Parameter("token", "path")),
            Map.of("application/x-www-form-urlencoded", Json.MAPPER.createObjectNode())));
  }

  // ---------------------------------------------------------------------------------------------
  // Sending

  /** The status, or -1 when the server gave no answer (reset, timeout). */
  static int status(Sent request) {
    try {
      try {
        return send(request);
      } catch (IOException ignored) {
        // The server refuses an over-long request line before reading the body and closes
        // the connection; the client, still writing the body, can meet the reset before
        // the answer. Sent again, a refusal answers; a failure stays a failure. How often
        // this happened is printed.
        int status = send(request);
        answeredWhenSentAgain.incrementAndGet();
        return status;
      }
    } catch (IOException e) {
      return -1;
    } catch (IllegalArgumentException e) {
      return 0; // the client itself refuses to send it (a header or URI it will not write): not the
      // server's doing
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static final AtomicInteger answeredWhenSentAgain = new AtomicInteger();

  private static int send(Sent request) throws IOException, InterruptedException {
    return clientFor(request)
        .send(toHttp(request), HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  private static HttpClient clientFor(Sent request) {
    boolean keyed = ("Bearer " + KEY).equals(request.headers().get("Authorization"));
    return keyed && !request.pathAndQuery().startsWith("/signin") ? http : outsider;
  }

  private static HttpRequest toHttp(Sent request) {
    var builder = HttpRequest.newBuilder(URI.create(base + request.pathAndQuery()))
        .timeout(Duration.ofSeconds(30));
    // a body past the node's limit is offered as a careful client offers a large upload: headers
    // first, the body only after 100 Continue. The node refuses it (413) from its declared length
    // without reading it; sent whole at once, the client would still be writing megabytes the node
    // will never read, and whether it sees the answer is a race of the two sockets, not the node's
    if (request.body().length > Settings.DEFAULT_MAX_BODY_BYTES) builder.expectContinue(true);
    request.headers().forEach(builder::header);
    var publisher = request.body().length == 0 && request.method().equals("GET")
        ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofByteArray(request.body());
    return builder.method(request.method(), publisher).build();
  }

  private static HttpResponse<String> send(HttpRequest request)
      throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest get(String path, boolean key) {
    var builder = HttpRequest.newBuilder(URI.create(base + path));
    if (key) builder.header("Authorization", "Bearer " + KEY);
    return builder.GET().build();
  }

  private static JsonNode call(String method, String path, String body) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(base + path))
        .header("Authorization", "Bearer " + KEY)
        .header("Content-Type", "application/json")
        .method(method, HttpRequest.BodyPublishers.ofString(body))
        .build();
    var response = send(request);
    assertThat(response.statusCode())
        .as("%s %s: %s", method, path, response.body())
        .isBetween(200, 299);
    return response.body().isEmpty()
        ? Json.MAPPER.createObjectNode()
        : Json.MAPPER.readTree(response.body());
  }

  // ---------------------------------------------------------------------------------------------
  // State before and after

  private static void seedState() throws Exception {
    call("POST", "/api/v1/products", product("p-1"));
    call("POST", "/api/v1/products", product("p-2"));
    call("POST", "/api/v1/subscribers", subscriber("s-1"));
    call("POST", "/api/v1/subscribers", subscriber("s-2"));
    call("PUT", "/api/v1/subscribers/s-1/follows/brand/Velin", "{}");
    JsonNode campaign = call("POST", "/api/v1/campaigns", campaign());
    campaignId = campaign.path("id").asLong();
    secondCampaignId = call("POST", "/api/v1/campaigns", campaign()).path("id").asLong();
    draftId = call("POST", "/api/v1/campaigns", campaign()).path("id").asLong();
    journeyId = call(
            "POST",
            "/api/v1/journey-templates/abandoned_cart",
            "{\"from\":{\"email\":\"news@shop.example\"}}")
        .path("id")
        .asLong();
    call("PUT", "/api/v1/content/c-1", content("c-1"));
    call("PUT", "/api/v1/content/c-2", content("c-2"));
    var signIn = send(HttpRequest.newBuilder(URI.create(base + "/signin"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", base)
        .POST(HttpRequest.BodyPublishers.ofString("key=" + URLEncoder.encode(KEY, UTF_8)))
        .build());
    sessionCookie =
        signIn.headers().firstValue("Set-Cookie").map(c -> c.split(";", 2)[0]).orElse("");
    var page = send(HttpRequest.newBuilder(URI.create(base + "/system"))
        .header("Cookie", sessionCookie)
        .build());
    var field = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page.body());
    formToken = field.find() ? field.group(1) : "";
    var id = new MessageId(campaignId, 1, "s-1");
    messageId = id.text();
    token = TokenCodec.of(new Secret(SECRET)).encode(new MessageToken(id, Instant.now(), 3));
  }

  /** What must hold after any sequence of requests; each broken rule is one line. */
  private static List<String> invariants(List<Integer> refusedAllOrNothing) throws Exception {
    List<String> broken = new ArrayList<>();
    var jdbi = node.infrastructure().database().jdbi();
    for (String kind : List.of("products", "subscribers")) {
      int listed = 0;
      String after = null;
      for (int page = 0; page < 10_000; page++) {
        String path =
            "/api/v1/" + kind + "?limit=500" + (after == null ? "" : "&after=" + encode(after));
        var response = send(get(path, true));
        if (response.statusCode() != 200) {
          broken.add("GET " + path + " answered " + response.statusCode() + " after the run");
          break;
        }
        JsonNode body = Json.MAPPER.readTree(response.body());
        for (JsonNode item : body.path("items")) {
          listed++;
          try {
            if (kind.equals("products")) ProductJson.fromJson(item);
            else AudienceJson.subscriberFromJson(item);
          } catch (RuntimeException e) {
            broken.add(kind + " " + item.path("id").asString("?")
                + " read back through the API is not valid under its rules: " + e.getMessage());
          }
        }
        if (!body.hasNonNull("next")) break;
        after = body.get("next").asString();
      }
      long stored = jdbi.withHandle(
          h -> h.createQuery("SELECT count(*) FROM " + kind).mapTo(Long.class).one());
      if (stored != listed)
        broken.add("the API lists " + listed + " " + kind + ", the database holds " + stored);
    }
    for (int index : refusedAllOrNothing) {
      String prefix = "imp-" + index + "-%";
      long rows = jdbi.withHandle(h -> h.createQuery(
              "SELECT (SELECT count(*) FROM products WHERE id LIKE :p) + (SELECT count(*) FROM subscribers WHERE id LIKE :p)"
                  + " + (SELECT count(*) FROM follows WHERE target_id LIKE :p)")
          .bind("p", prefix)
          .mapTo(Long.class)
          .one());
      if (rows > 0)
        broken.add("request #" + index + " (an all-or-nothing import that was refused) left " + rows
            + " row(s): " + build(index).describe());
    }
    return broken;
  }

  // ---------------------------------------------------------------------------------------------
  // Report

  private static String report(
      Map<String, Map<String, AtomicInteger>> byRoute,
      Map<String, AtomicInteger> failureCounts,
      Map<String, Sent> firstFailure,
      long sent,
      double seconds,
      List<String> invariants) {
    var out = new StringBuilder();
    long fives = failureCounts.values().stream().mapToLong(AtomicInteger::get).sum();
    out.append(String.format(
        "%nHTTP fuzzing: %d requests in %.1f s (seed %d, %d routes), %d answers of 5xx (or no answer);"
            + " %d had no answer at first and were answered when sent again%n",
        sent, seconds, SEED, operations.size(), fives, answeredWhenSentAgain.get()));
    out.append(
        String.format("%-62s %7s %7s %7s %7s %7s%n", "route", "2xx", "3xx", "4xx", "5xx", "other"));
    new TreeMap<>(byRoute)
        .forEach((route, classes) -> out.append(String.format(
            "%-62s %7d %7d %7d %7d %7d%n",
            shorten(route, 62),
            count(classes, "2xx"),
            count(classes, "3xx"),
            count(classes, "4xx"),
            count(classes, "5xx"),
            count(classes, "other"))));
    if (!failureCounts.isEmpty()) {
      out.append(
          "\n5xx answers by route, status and mutation (each with its smallest request found):\n");
      new TreeMap<>(failureCounts).forEach((kind, count) -> {
        Sent smallest = minimise(firstFailure.get(kind));
        out.append("  ")
            .append(kind)
            .append(": ")
            .append(count.get())
            .append("\n    ")
            .append(smallest.describe())
            .append('\n');
      });
    }
    if (!invariants.isEmpty()) {
      out.append("\nbroken invariants:\n");
      invariants.forEach(line -> out.append("  ").append(line).append('\n'));
    }
    return out.toString();
  }

  /** The request made smaller while it still gets a 5xx: JSON fields and elements, then bytes, then the query. */
  private static Sent minimise(Sent failing) {
    var budget = new AtomicInteger(MINIMISE_BUDGET);
    Predicate<Sent> fails = candidate -> budget.getAndDecrement() > 0 && status(candidate) >= 500;
    Sent best = failing;
    int q = best.pathAndQuery().indexOf('?');
    if (q >= 0 && fails.test(best.withPath(best.pathAndQuery().substring(0, q))))
      best = best.withPath(best.pathAndQuery().substring(0, q));
    var json = Inputs.json(best.body());
    if (json.isPresent() && (json.get().isObject() || json.get().isArray())) {
      JsonNode document = json.get();
      boolean shrunk = true;
      while (shrunk && budget.get() > 0) {
        shrunk = false;
        for (JsonNode smaller : oneSmaller(document)) {
          Sent candidate = best.withBody(JsonMutations.write(smaller).getBytes(UTF_8));
          if (fails.test(candidate)) {
            best = candidate;
            document = smaller;
            shrunk = true;
            break;
          }
        }
      }
    } else if (best.body().length > 0) {
      Sent start = best;
      byte[] body =
          Minimizer.minimize(best.body(), candidate -> fails.test(start.withBody(candidate)));
      best = best.withBody(body);
    }
    return best;
  }

  /** Every copy of the document with one field or element removed (first level, then one level down). */
  private static List<JsonNode> oneSmaller(JsonNode document) {
    List<JsonNode> out = new ArrayList<>();
    collectSmaller(document, document, out, 0);
    return out;
  }

  private static void collectSmaller(JsonNode root, JsonNode node, List<JsonNode> out, int depth) {
    if (depth > 3 || out.size() > 60) return;
    if (node instanceof ObjectNode object) {
      for (String name : List.copyOf(object.propertyNames())) {
        JsonNode removed = object.remove(name);
        out.add(root.deepCopy());
        object.set(name, removed);
      }
      for (String name : List.copyOf(object.propertyNames()))
        collectSmaller(root, object.get(name), out, depth + 1);
    } else if (node instanceof ArrayNode array) {
      for (int i = array.size() - 1; i >= 0; i--) {
        JsonNode removed = array.remove(i);
        out.add(root.deepCopy());
        array.insert(i, removed);
      }
      for (JsonNode child : array) collectSmaller(root, child, out, depth + 1);
    }
  }

  private static long count(Map<String, AtomicInteger> classes, String name) {
    AtomicInteger count = classes.get(name);
    return count == null ? 0 : count.get();
  }

  private static String statusClass(int status) {
    if (status >= 200 && status < 600) return (status / 100) + "xx";
    return status < 0 ? "5xx" : "other";
  }

  // ---------------------------------------------------------------------------------------------
  // Valid documents

  static String product(String id) {
    return """
        {"id":"%s","title":"Linen Shirt","brand":"Velin","category":"men/shirts","price":"49.90","currency":"EUR",\
        "imageUrl":"https://img.example/%1$s.png","landingUrl":"https://shop.example/p/%1$s","available":true,\
        "attributes":{"colour":"white"}}""".formatted(id);
  }

  static String subscriber(String id) {
    return """
        {"id":"%s","email":"%1$s@example.com","name":"Ada","locale":"en-GB","timeZone":"Europe/London",\
        "latitude":51.5,"longitude":-0.12,"city":"London","country":"GB","consent":"subscribed"}""".formatted(id);
  }

  static String event(int index) {
    return """
        {"userId":"s-1","type":"purchase","itemId":"p-1","timestamp":"2026-01-02T03:04:05Z","eventId":"e-%d",\
        "quantity":1,"price":"49.90","sessionId":"sess-1","attributes":{"channel":"email"}}""".formatted(index);
  }

  static String content(String id) {
    return """
        {"id":"%s","type":"event","title":"Autumn show","url":"https://shop.example/events/%1$s",\
        "owners":[{"type":"brand","id":"Velin"}],"location":{"latitude":51.5,"longitude":-0.12},"radiusKm":25,\
        "startsAt":"2030-01-02T03:04:05Z","endsAt":"2030-01-03T03:04:05Z","imageUrl":"https://img.example/%1$s.png"}""".formatted(id);
  }

  static String campaign() {
    return """
        {"name":"Autumn edit","from":{"email":"news@shop.example","name":"Shop"},"replyTo":"care@shop.example",\
        "subject":"{{subscriber.name}}, six picks","html":"<p>{{#slots}}<a href=\\"{{clickUrl}}\\">x</a>{{/slots}}\
        <a href=\\"{{unsubscribeUrl}}\\">u</a></p>","text":"{{#slots}}{{clickUrl}}{{/slots}} {{unsubscribeUrl}}",\
        "slots":3,"priority":3,"ratePerSecond":250,\
        "audience":{"type":"segment","conditions":[{"type":"field","field":"country","values":["GB"]}]}}""";
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, UTF_8).replace("+", "%20");
  }

  private static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  private static String shorten(String text, int max) {
    return text.length() <= max
        ? text
        : text.substring(0, max) + "...(" + text.length() + " chars)";
  }

  private static String hmacHex(String key, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(text.getBytes(UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
