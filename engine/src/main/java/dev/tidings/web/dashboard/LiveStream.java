package dev.tidings.web.dashboard;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.Json;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Server-sent events: each open page holds one stream, and gets the figures it shows whenever they
 * change (checked every {@link #TICK}). Figures are read once per tick per key whatever the number
 * of viewers (a shared snapshot), so a hundred open dashboards cost the database what one does. A
 * stream ends after {@link #LIFETIME}; the browser's EventSource reconnects by itself, which also
 * moves viewers off a node that stops. The snapshots are a bounded cache (keys are campaigns, and a
 * path may name any id): past {@link #MAX_KEYS} the least used go, one at a time, so a flood of
 * one-off keys never takes the snapshot of a page many people watch; what goes is counted in
 * {@code cache_evictions_total{cache="dashboard_live"}}.
 */
final class LiveStream {
  static final Duration TICK = Duration.ofSeconds(1);
  static final Duration LIFETIME = Duration.ofMinutes(5);
  private static final Duration HEARTBEAT = Duration.ofSeconds(15);

  static final int MAX_KEYS = 1_000;
  static final String CACHE = "dashboard_live";

  private record Snapshot(long readAtNanos, String json) {}

  private final Cache<String, Snapshot> snapshots;
  private final LongSupplier nanos;
  private volatile boolean stopping;

  LiveStream(MeterRegistry metrics) {
    this(metrics, MAX_KEYS, System::nanoTime);
  }

  /** @param nanos the monotonic clock a snapshot's age is read on (a test's own) */
  LiveStream(MeterRegistry metrics, int maxKeys, LongSupplier nanos) {
    this.nanos = nanos;
    // evicts on the caller's thread: a tick's read is cheap, and the count is current when asked
    this.snapshots = Caffeine.newBuilder()
        .maximumSize(maxKeys)
        .expireAfterAccess(Duration.ofMinutes(1)) // a page nobody watches any more
        .executor(Runnable::run)
        .recordStats()
        .build();
    CaffeineCacheMetrics.monitor(metrics, snapshots, CACHE);
  }

  /** Ends every stream at its next tick: a stopping node must not wait for them for its whole grace. */
  void stop() {
    stopping = true;
  }

  /** The figures under {@code key} as JSON, read anew at most once per tick. */
  String snapshot(String key, Supplier<Object> read) {
    long now = nanos.getAsLong();
    Snapshot cached = snapshots.getIfPresent(key);
    if (cached != null && now - cached.readAtNanos() < TICK.toNanos()) return cached.json();
    Snapshot fresh = new Snapshot(now, Json.MAPPER.writeValueAsString(read.get()));
    snapshots.put(key, fresh);
    return fresh.json();
  }

  /** Holds the request's thread (a virtual one) until the viewer leaves or the lifetime is over. */
  void serve(ServerResponse response, String key, Supplier<Object> read) {
    response.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=UTF-8");
    response.header(HeaderNames.CACHE_CONTROL, "no-store");
    response.header("X-Accel-Buffering", "no"); // proxies must not hold the events back
    long end = System.nanoTime() + LIFETIME.toNanos();
    long lastWrite = 0;
    String last = "";
    try (OutputStream out = response.outputStream()) {
      write(out, "retry: 2000\n\n");
      while (System.nanoTime() < end && !stopping) {
        String json = snapshot(key, read);
        if (!json.equals(last)) {
          write(out, "data: " + json + "\n\n");
          last = json;
          lastWrite = System.nanoTime();
        } else if (System.nanoTime() - lastWrite > HEARTBEAT.toNanos()) {
          write(out, ": still here\n\n"); // a comment: finds a viewer gone, keeps proxies open
          lastWrite = System.nanoTime();
        }
        Thread.sleep(TICK.toMillis());
      }
    } catch (IOException | UncheckedIOException viewerLeft) {
      // the viewer closed the page: nothing to do
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    }
  }

  private static void write(OutputStream out, String event) throws IOException {
    out.write(event.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
