package dev.tidings.bench;

import dev.tidings.config.Secret;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a serving node does all day, in miniature and at a fixed concurrency: {@code lanes} readers,
 * each on keep-alive connections of its own, take the next email and, as a mail client and a shop
 * would, fetch its {@code slots} open-time images at once (a first open: the list is chosen), its
 * pixel, the images again (a re-open), a click, then post the subscriber's shop views and cart to
 * {@code /api/v1/events}, the email's delivery receipt to {@code /api/v1/delivery-events} and ask
 * {@code /api/v1/users/{id}/recommendations}. Every email is one the node has not seen (a campaign
 * per pass over the audience), so first opens stay first opens however long it runs. Answers below
 * 400 are counted per second since {@code origin}; others, and broken connections, as errors.
 */
public final class NodeWorkload {
  private static final int READ_TIMEOUT_MILLIS = 15_000;
  private static final int IMPORT_TIMEOUT_MILLIS = 300_000;
  private static final int MAX_SECONDS = 24 * 3600;
  private static final String[] LOCALES = {"de-DE", "en-GB", "fr-FR", "it-IT", "nl-NL"};
  private static final String[] CURRENCIES = {"EUR", "GBP", "EUR", "EUR", "EUR"};
  private static final List<String> KEY =
      List.of("Authorization: Bearer " + OpenBurstBench.API_KEY);
  private static final List<String> JSON_WITH_KEY =
      List.of("Authorization: Bearer " + OpenBurstBench.API_KEY, "Content-Type: application/json");

  /** The shop's size and the load's shape. */
  public record Shape(int lanes, int slots, int products, int subscribers) {
    public Shape {
      if (lanes < 1) throw new IllegalArgumentException("lanes must be >= 1");
      if (slots < 1 || slots > MessageToken.MAX_SLOTS)
        throw new IllegalArgumentException("slots must be within 1.." + MessageToken.MAX_SLOTS);
      if (products < slots) throw new IllegalArgumentException("products must be >= slots");
      if (subscribers < 1) throw new IllegalArgumentException("subscribers must be >= 1");
    }
  }

  /** Answered requests in each second since the origin, and the requests that failed. */
  public record Result(long[] perSecond, long errors) {
    public long requests() {
      return Arrays.stream(perSecond).sum();
    }
  }

  private final Shape shape;
  private final TokenCodec codec = TokenCodec.of(new Secret(OpenBurstBench.SECRET));

  public NodeWorkload(Shape shape) {
    this.shape = shape;
  }

  /** Imports the catalogue (images at a closed port: cards are drawn without pictures) and audience. */
  public void loadShop(int port) {
    int closedPort = OpenBurstBench.freePort();
    var products = new StringBuilder();
    for (int i = 0; i < shape.products(); i++) {
      int variant = i % LOCALES.length;
      products
          .append("{\"id\":\"bench-p")
          .append(i)
          .append("\",\"title\":\"Bench product ")
          .append(i)
          .append("\",\"brand\":\"Brand ")
          .append(i % 37)
          .append("\",\"category\":\"category-")
          .append(i % 11)
          .append("\",\"price\":")
          .append(10 + i % 90)
          .append(".99,\"currency\":\"")
          .append(CURRENCIES[variant])
          .append("\",\"imageUrl\":\"http://127.0.0.1:")
          .append(closedPort)
          .append("/p")
          .append(i)
          .append(".jpg\",\"landingUrl\":\"https://shop.example/p/")
          .append(i)
          .append("\",\"available\":true}\n");
    }
    importLines(port, "/api/v1/products/import", products);
    var audience = new StringBuilder();
    for (int i = 0; i < shape.subscribers(); i++)
      audience
          .append("{\"id\":\"bench-s")
          .append(i)
          .append("\",\"email\":\"bench-s")
          .append(i)
          .append("@example.com\",\"locale\":\"")
          .append(LOCALES[i % LOCALES.length])
          .append("\"}\n");
    importLines(port, "/api/v1/subscribers/import", audience);
  }

  private static void importLines(int port, String path, CharSequence lines) {
    try (var connection = new KeepAliveConnection("127.0.0.1", port, IMPORT_TIMEOUT_MILLIS)) {
      connection.post(
          path,
          List.of(
              "Authorization: Bearer " + OpenBurstBench.API_KEY,
              "Content-Type: application/x-ndjson"),
          lines.toString().getBytes(StandardCharsets.UTF_8));
      int status = connection.read().status();
      if (status != 200) throw new IllegalStateException("POST " + path + " answered " + status);
    } catch (IOException e) {
      throw new UncheckedIOException("POST " + path + " failed", e);
    }
  }

  /**
   * Loads the node on {@code port} until {@code untilNanos} ({@link System#nanoTime()}), counting
   * answers per second since {@code originNanos}. {@code runId} keeps the emails of different runs on
   * the same data apart, so each run's first opens are first opens.
   */
  public Result run(int port, long originNanos, long untilNanos, long runId) {
    var perSecond = new AtomicLongArray(MAX_SECONDS);
    var errors = new LongAdder();
    var nextEmail = new AtomicLong();
    long campaignBase = System.currentTimeMillis() / 1000;
    List<Future<?>> lanes = new ArrayList<>();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int lane = 0; lane < shape.lanes(); lane++)
        lanes.add(threads.submit(() -> {
          new Lane(port, originNanos, untilNanos, perSecond, errors)
              .run(nextEmail, campaignBase, runId);
          return null;
        }));
      for (Future<?> lane : lanes) lane.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a load lane failed: " + e.getCause(), e.getCause());
    }
    int seconds = (int) Math.min(MAX_SECONDS, (untilNanos - originNanos) / 1_000_000_000L);
    long[] counts = new long[Math.max(0, seconds)];
    for (int s = 0; s < counts.length; s++) counts[s] = perSecond.get(s);
    return new Result(counts, errors.sum());
  }

  /** One reader: {@code slots} connections for the images, the first of them for everything else. */
  private final class Lane {
    private final int port;
    private final long originNanos;
    private final long untilNanos;
    private final AtomicLongArray perSecond;
    private final LongAdder errors;
    private final KeepAliveConnection[] connections;

    Lane(int port, long originNanos, long untilNanos, AtomicLongArray perSecond, LongAdder errors) {
      this.port = port;
      this.originNanos = originNanos;
      this.untilNanos = untilNanos;
      this.perSecond = perSecond;
      this.errors = errors;
      this.connections = new KeepAliveConnection[shape.slots()];
    }

    void run(AtomicLong nextEmail, long campaignBase, long runId) throws IOException {
      try {
        for (int j = 0; j < connections.length; j++)
          connections[j] = new KeepAliveConnection("127.0.0.1", port, READ_TIMEOUT_MILLIS);
        while (System.nanoTime() < untilNanos) {
          long email = nextEmail.getAndIncrement();
          int subscriber = (int) (email % shape.subscribers());
          long campaign = campaignBase + email / shape.subscribers();
          var id = new MessageId(campaign, runId, "bench-s" + subscriber);
          String token = codec.encode(new MessageToken(id, Instant.now(), shape.slots()));
          readEmail(token, id, subscriber, email);
        }
      } finally {
        for (KeepAliveConnection connection : connections)
          if (connection != null) connection.close();
      }
    }

    private void readEmail(String token, MessageId id, int subscriber, long email) {
      images(token); // first open: the node chooses the list
      get(0, "/p/" + token, List.of());
      images(token); // re-open: the list and cards are kept
      get(0, "/c/" + token + "/" + (email % shape.slots()), List.of());
      String user = "bench-s" + subscriber;
      String product = "bench-p" + (email * 7 % shape.products());
      String now = Instant.now().toString();
      post(
          "/api/v1/events",
          "[{\"userId\":\"" + user + "\",\"type\":\"view\",\"itemId\":\"" + product
              + "\",\"timestamp\":\"" + now + "\"},{\"userId\":\"" + user
              + "\",\"type\":\"add_to_cart\",\"itemId\":\"" + product + "\",\"timestamp\":\"" + now
              + "\"}]");
      post(
          "/api/v1/delivery-events",
          "[{\"messageId\":\"" + id.text() + "\",\"status\":\"delivered\",\"timestamp\":\"" + now
              + "\"}]");
      get(0, "/api/v1/users/" + user + "/recommendations?n=6", KEY);
    }

    /** Every slot's image at once, one connection each, as a mail client loads them. */
    private void images(String token) {
      boolean[] sent = new boolean[connections.length];
      for (int j = 0; j < connections.length; j++) {
        try {
          connections[j].send("/o/" + token + "/" + j);
          sent[j] = true;
        } catch (IOException e) {
          failed(j);
        }
      }
      for (int j = 0; j < connections.length; j++) if (sent[j]) answer(j);
    }

    private void get(int connection, String path, List<String> headers) {
      try {
        connections[connection].send(path, headers);
      } catch (IOException e) {
        failed(connection);
        return;
      }
      answer(connection);
    }

    private void post(String path, String json) {
      try {
        connections[0].post(path, JSON_WITH_KEY, json.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        failed(0);
        return;
      }
      answer(0);
    }

    private void answer(int connection) {
      try {
        int status = connections[connection].read().status();
        if (status < 400) {
          long second = (System.nanoTime() - originNanos) / 1_000_000_000L;
          if (second >= 0 && second < MAX_SECONDS) perSecond.incrementAndGet((int) second);
        } else errors.increment();
      } catch (IOException | RuntimeException e) {
        failed(connection);
      }
    }

    private void failed(int connection) {
      errors.increment();
      try {
        connections[connection].reconnect();
      } catch (IOException stillDown) {
        // counted; the next request on it fails and tries again
      }
    }
  }
}
