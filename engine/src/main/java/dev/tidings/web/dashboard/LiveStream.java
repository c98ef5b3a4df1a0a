package dev.tidings.web.dashboard;

import dev.tidings.Json;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Server-sent events: each open page holds one stream, and gets the figures it shows whenever they
 * change (checked every {@link #TICK}). Figures are read once per tick per key whatever the number
 * of viewers (a shared snapshot), so a hundred open dashboards cost the database what one does. A
 * stream ends after {@link #LIFETIME}; the browser's EventSource reconnects by itself, which also
 * moves viewers off a node that stops.
 */
final class LiveStream {
  static final Duration TICK = Duration.ofSeconds(1);
  static final Duration LIFETIME = Duration.ofMinutes(5);
  private static final Duration HEARTBEAT = Duration.ofSeconds(15);

  private record Snapshot(long readAtNanos, String json) {}

  private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
  private volatile boolean stopping;

  /** Ends every stream at its next tick: a stopping node must not wait for them for its whole grace. */
  void stop() {
    stopping = true;
  }

  /** The figures under {@code key} as JSON, read anew at most once per tick. */
  String snapshot(String key, Supplier<Object> read) {
    long now = System.nanoTime();
    Snapshot cached = snapshots.get(key);
    if (cached != null && now - cached.readAtNanos() < TICK.toNanos()) return cached.json();
    Snapshot fresh = new Snapshot(now, Json.MAPPER.writeValueAsString(read.get()));
    snapshots.put(key, fresh);
    if (snapshots.size() > 1_000) snapshots.clear(); // keys are campaigns: keep the map small
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
