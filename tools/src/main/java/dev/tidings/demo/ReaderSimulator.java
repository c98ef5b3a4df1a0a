package dev.tidings.demo;

import dev.tidings.Json;
import dev.tidings.demo.ReaderAction.Fetch;
import dev.tidings.demo.ReaderAction.Receipt;
import dev.tidings.demo.ReaderAction.SiteEvent;
import dev.tidings.demo.ReaderAction.Unsubscribe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Carries out an {@link EngagementPlan} against a node over HTTP, as the outside world would: image
 * and link fetches at the email-facing URLs, receipts and shop events through the API with its key.
 * Runs on one virtual thread (each burst's fetches at once on their own); {@link #close} stops it.
 */
public final class ReaderSimulator implements AutoCloseable {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  /** Receipts or events due this close together go in one request, as a provider batches them. */
  private static final Duration BATCH_WINDOW = Duration.ofMillis(1_000);

  private final URI node;
  private final String apiKey;
  private final InstantSource clock;
  private final HttpClient client;
  private final AtomicLong fetches = new AtomicLong();
  private final AtomicLong receipts = new AtomicLong();
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private volatile @Nullable Thread thread;

  /** Counts of what was done, for the closing line. */
  public record Done(long fetches, long receipts, long events, long failures) {}

  /** @param node the node's own address, e.g. {@code http://127.0.0.1:8080} */
  public ReaderSimulator(URI node, String apiKey, InstantSource clock) {
    this.node = node;
    this.apiKey = apiKey;
    this.clock = clock;
    // never follows a click's redirect: the landing page is the shop's, not ours to load
    this.client = HttpClient.newBuilder()
        .connectTimeout(TIMEOUT)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** Starts the plan now; {@code finished} is told the counts when the last action is done. */
  public void start(List<ReaderAction> plan, Consumer<Done> finished) {
    Instant start = clock.instant();
    thread = Thread.ofVirtual().name("demo readers").start(() -> {
      try {
        run(plan, start);
        finished.accept(done());
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    });
  }

  public Done done() {
    return new Done(fetches.get(), receipts.get(), events.get(), failures.get());
  }

  void run(List<ReaderAction> plan, Instant start) throws InterruptedException {
    int i = 0;
    while (i < plan.size()) {
      ReaderAction action = plan.get(i);
      long wait = Duration.between(clock.instant(), start.plus(action.after())).toMillis();
      if (wait > 0) Thread.sleep(wait);
      switch (action) {
        case Fetch fetch -> {
          burst(fetch);
          i++;
        }
        case Unsubscribe unsubscribe -> {
          post(
              "/u/" + unsubscribe.token(),
              "application/x-www-form-urlencoded",
              "List-Unsubscribe=One-Click",
              false);
          i++;
        }
        case Receipt receipt -> {
          List<Map<String, Object>> batch = new ArrayList<>();
          while (i < plan.size()
              && plan.get(i) instanceof Receipt next
              && next.after().compareTo(receipt.after().plus(BATCH_WINDOW)) <= 0) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("messageId", next.messageId());
            row.put("status", next.status());
            row.put("timestamp", clock.instant().toString());
            if (!next.reason().isEmpty()) row.put("reason", next.reason());
            batch.add(row);
            i++;
          }
          if (post(
              "/api/v1/delivery-events",
              "application/json",
              Json.MAPPER.writeValueAsString(batch),
              true)) receipts.addAndGet(batch.size());
        }
        case SiteEvent event -> {
          List<Map<String, Object>> batch = new ArrayList<>();
          while (i < plan.size()
              && plan.get(i) instanceof SiteEvent next
              && next.after().compareTo(event.after().plus(BATCH_WINDOW)) <= 0) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("userId", next.userId());
            row.put("type", next.type());
            row.put("itemId", next.itemId());
            row.put("timestamp", clock.instant().toString());
            batch.add(row);
            i++;
          }
          if (post(
              "/api/v1/events", "application/json", Json.MAPPER.writeValueAsString(batch), true))
            events.addAndGet(batch.size());
        }
      }
    }
  }

  /** Every URL of the burst at once, as a mail client loads an email's images. */
  private void burst(Fetch fetch) throws InterruptedException {
    List<Thread> running = new ArrayList<>();
    for (String path : fetch.paths()) {
      running.add(Thread.ofVirtual().start(() -> {
        var request = HttpRequest.newBuilder(node.resolve(path))
            .timeout(TIMEOUT)
            .header("User-Agent", fetch.userAgent())
            .GET()
            .build();
        try {
          var response = client.send(request, HttpResponse.BodyHandlers.discarding());
          if (response.statusCode() < 400) fetches.incrementAndGet();
          else failures.incrementAndGet();
        } catch (IOException e) {
          failures.incrementAndGet();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    for (Thread t : running) t.join();
  }

  private boolean post(String path, String type, String body, boolean withKey)
      throws InterruptedException {
    var request = HttpRequest.newBuilder(node.resolve(path))
        .timeout(TIMEOUT)
        .header("Content-Type", type)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (withKey) request.header("Authorization", "Bearer " + apiKey);
    try {
      var response = client.send(request.build(), HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() < 400) return true;
    } catch (IOException e) {
      // counted below: the node is stopping, or overloaded; the demo goes on
    }
    failures.incrementAndGet();
    return false;
  }

  @Override
  public void close() {
    Thread running = thread;
    if (running != null) running.interrupt();
  }
}
