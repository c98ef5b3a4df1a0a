package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The live snapshots stay bounded without dropping the ones people watch. */
class LiveStreamTest {
  @Test
  void a_flood_of_keys_evicts_some_but_not_the_watched_page() {
    var metrics = new SimpleMeterRegistry();
    var clock = new AtomicLong(); // the tick never passes: a snapshot kept is a snapshot reused
    var live = new LiveStream(metrics, LiveStream.MAX_KEYS, clock::get);
    var reads = new AtomicInteger();
    Supplier<Object> watched = () -> "read " + reads.incrementAndGet();
    int flood = 3 * LiveStream.MAX_KEYS;

    // a page open all along, read on every tick, while paths name campaign after campaign
    for (int id = 2; id < 2 + flood; id++) {
      live.snapshot("campaign 1", watched);
      live.snapshot("campaign " + id, () -> "other");
    }

    assertThat(live.snapshot("campaign 1", watched))
        .as("the page read on every tick kept its snapshot (the old map was cleared whole)")
        .isEqualTo("\"read 1\"");
    assertThat(reads).hasValue(1);
    double evicted = metrics
        .get("cache.evictions")
        .tag("cache", LiveStream.CACHE)
        .functionCounter()
        .count();
    assertThat(evicted)
        .as("what went is counted")
        .isGreaterThanOrEqualTo(flood + 1 - LiveStream.MAX_KEYS);
  }

  @Test
  void a_snapshot_is_read_again_once_its_tick_is_over() {
    var clock = new AtomicLong();
    var live = new LiveStream(new SimpleMeterRegistry(), 10, clock::get);
    var reads = new AtomicInteger();
    Supplier<Object> read = reads::incrementAndGet;

    assertThat(live.snapshot("k", read)).isEqualTo("1");
    assertThat(live.snapshot("k", read)).isEqualTo("1");
    clock.addAndGet(LiveStream.TICK.toNanos());
    assertThat(live.snapshot("k", read)).isEqualTo("2");
  }
}
