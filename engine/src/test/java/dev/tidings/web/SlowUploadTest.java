package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.catalog.CatalogService;
import dev.tidings.config.Secret;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.catalog.CatalogRoutes;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Imports whose clients trickle their bodies hold no database connection meanwhile: more slow
 * uploads than the pool has connections leave the other keyed calls their speed, and each upload
 * still imports once its body has arrived. A body past the limit is a 413 naming it; one whose
 * client goes away mid-body leaves neither a file nor a row.
 */
@Timeout(120)
@StartsServers
class SlowUploadTest {
  private static final String KEY = "slow-upload-test-key-0123456789";
  private static final int POOL = 4;
  private static final int UPLOADS = 6;
  private static final long LIMIT = 1024 * 1024;
  private static final String HEADER = "id,title,price,currency,imageUrl,landingUrl\n";

  private static Database database;
  private static HttpServer server;
  private static ApiClient api;
  private static Path spool;

  @BeforeAll
  static void start() throws IOException {
    database = TestDatabases.embedded(POOL);
    spool = Files.createTempDirectory("tidings-uploads-test").resolve("uploads");
    var catalog = new CatalogService(database.jdbi(), InstantSource.system());
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new CatalogRoutes(catalog, 8 * 1024, new Uploads(LIMIT, spool))));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE products"));
  }

  private static String row(String id) {
    return id + ",Slow " + id + ",9.90,EUR,https://i.example/" + id + ".png,https://s.example/" + id
        + "\n";
  }

  @Test
  void more_trickling_uploads_than_the_pool_has_connections_leave_a_keyed_read_its_speed()
      throws Exception {
    List<Upload> uploads = new ArrayList<>();
    for (int i = 0; i < UPLOADS; i++) {
      String body = HEADER + row("slow-" + i);
      var upload = Upload.start(server.port(), body.length());
      // half the body now, the rest once the read below was answered
      upload.send(body.substring(0, body.length() / 2));
      uploads.add(upload);
    }
    // give each import the time to take a connection, were it to take one before its body arrived
    Thread.sleep(1_500);

    long started = System.nanoTime();
    var read = CompletableFuture.supplyAsync(() -> api.get("/api/v1/products"));
    var answer = read.get(10, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(took)
        .as("a keyed read while %d uploads trickle", UPLOADS)
        .isLessThan(Duration.ofSeconds(3));

    for (int i = 0; i < UPLOADS; i++) {
      String body = HEADER + row("slow-" + i);
      uploads.get(i).send(body.substring(body.length() / 2));
    }
    for (var upload : uploads) {
      var done = upload.answer();
      assertThat(done.status()).as(done.body()).isEqualTo(200);
      assertThat(Json.MAPPER.readTree(done.body()).path("imported").asLong()).isEqualTo(1);
    }
    assertThat(api.get("/api/v1/products").json().path("items")).hasSize(UPLOADS);
    assertThat(filesIn(spool)).isEmpty();
  }

  @Test
  void a_large_body_waits_in_a_file_that_is_gone_after_the_import() throws Exception {
    var csv = new StringBuilder(HEADER);
    for (int i = 0; csv.length() <= SpooledBody.IN_MEMORY; i++)
      csv.append(row(String.format(Locale.ROOT, "big-%05d", i)));
    byte[] body = csv.toString().getBytes(StandardCharsets.UTF_8);
    var upload = Upload.start(server.port(), body.length);
    upload.send(new String(body, 0, body.length - 10, StandardCharsets.UTF_8));
    awaitFiles(1);

    upload.send(new String(body, body.length - 10, 10, StandardCharsets.UTF_8));
    var done = upload.answer();

    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(done.body()).path("imported").asLong())
        .isEqualTo(csv.toString().lines().count() - 1);
    assertThat(filesIn(spool)).isEmpty();
  }

  @Test
  void a_client_that_goes_away_mid_body_leaves_no_file_and_no_row() throws Exception {
    var csv = new StringBuilder(HEADER);
    for (int i = 0; csv.length() <= SpooledBody.IN_MEMORY; i++) csv.append(row("gone-" + i));
    var upload = Upload.start(server.port(), csv.length() + 1_000);
    upload.send(csv.toString());
    awaitFiles(1);

    upload.abort();

    awaitFiles(0);
    long products = database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT count(*) FROM products")
            .mapTo(Long.class)
            .one());
    assertThat(products).isZero();
  }

  @Test
  void a_body_past_the_limit_without_a_declared_length_is_a_413_naming_it_and_leaves_no_file()
      throws Exception {
    byte[] tooLarge = (HEADER + "x".repeat((int) LIMIT)).getBytes(StandardCharsets.UTF_8);
    var request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/api/v1/products/import"))
        .header("Authorization", "Bearer " + KEY)
        .header("Content-Type", "text/csv")
        // a stream of unknown length: sent chunked, so only the received bytes can tell
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(tooLarge)))
        .build();

    var refused = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

    assertThat(refused.statusCode()).isEqualTo(413);
    assertThat(refused.body()).contains("limit of " + LIMIT + " bytes");
    awaitFiles(0);
  }

  private static List<Path> filesIn(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) return List.of();
    try (Stream<Path> files = Files.list(directory)) {
      return files.toList();
    }
  }

  private static void awaitFiles(int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (filesIn(spool).size() != count) {
      if (System.nanoTime() > deadline)
        assertThat(filesIn(spool)).as("files waiting in %s", spool).hasSize(count);
      Thread.sleep(20);
    }
  }

  /** An import whose client writes its body when told to, over a socket of its own. */
  private static final class Upload {
    private final Socket socket;
    private final OutputStream out;

    private Upload(Socket socket) throws IOException {
      this.socket = socket;
      this.out = socket.getOutputStream();
    }

    static Upload start(int port, long length) throws IOException {
      var upload = new Upload(new Socket("127.0.0.1", port));
      upload.head("Content-Length: " + length);
      return upload;
    }

    private void head(String length) throws IOException {
      socket.setSoTimeout(30_000);
      out.write(("POST /api/v1/products/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              + "Authorization: Bearer " + KEY + "\r\nContent-Type: text/csv\r\n" + length
              + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    void send(String text) throws IOException {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    void abort() throws IOException {
      socket.setSoLinger(true, 0); // a reset, as a client that dies sends
      socket.close();
    }

    /** The status and body of the answer. */
    ApiClient.Answer answer() {
      try (socket) {
        InputStream in = socket.getInputStream();
        String head = line(in);
        int status = Integer.parseInt(head.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
          String lower = header.toLowerCase(Locale.ROOT);
          if (lower.startsWith("content-length:"))
            length = Long.parseLong(lower.substring(15).trim());
          if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) chunked = true;
        }
        var body = new ByteArrayOutputStream();
        if (chunked) {
          for (int size = Integer.parseInt(line(in).trim(), 16);
              size > 0;
              size = Integer.parseInt(line(in).trim(), 16)) {
            body.write(in.readNBytes(size));
            line(in);
          }
        } else if (length >= 0) {
          body.write(in.readNBytes((int) length));
        }
        return new ApiClient.Answer(status, body.toString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String line(InputStream in) throws IOException {
      var line = new ByteArrayOutputStream();
      for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) if (b != '\r') line.write(b);
      return line.toString(StandardCharsets.US_ASCII);
    }
  }
}
