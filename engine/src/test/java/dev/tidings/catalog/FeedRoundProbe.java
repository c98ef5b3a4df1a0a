package dev.tidings.catalog;

import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.storage.ConnectionSpec;
import dev.tidings.storage.Database;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;

/**
 * One round of the scheduled product feed, as a node runs it, in a JVM of its own: run with a small heap,
 * it shows what a hostile feed costs a node. Prints the outcome and its count in the metric (the round's
 * own log lines go to standard error); exit status 0 when the round ended, whatever it came to.
 *
 * <p>Arguments: the JDBC URL of a migrated database (user postgres), its schema, the feed's URL (on
 * loopback: its port is the one allowed), the work directory and the byte limit of a fetch.
 */
final class FeedRoundProbe {
  public static void main(String[] args) throws Exception {
    URI feed = URI.create(args[2]);
    var spec = new ConnectionSpec(args[0], Optional.of("postgres"), Optional.empty(), args[1], 2);
    var clock = InstantSource.system();
    var metrics = new SimpleMeterRegistry();
    try (var database = Database.connect(spec, () -> {}, new SimpleMeterRegistry());
        var fetcher = new GuardedFetcher(
            FetchAllowance.addressAndPort(InetAddress.getLoopbackAddress(), feed.getPort()),
            GuardedFetcher.Limits.of(Duration.ofSeconds(60), Long.parseLong(args[4])),
            metrics)) {
      var round = new ProductFeedFetch(
          feed,
          Duration.ofMinutes(1),
          new CatalogService(database.jdbi(), clock),
          database.jdbi(),
          fetcher,
          InProcessCoordination.computeOnce(clock),
          clock,
          metrics,
          Path.of(args[3]));
      var outcome = round.fetchAndImport();
      double counted = metrics
          .get("tidings_product_feed_fetches_total")
          .tag("outcome", outcome.label())
          .counter()
          .count();
      System.out.println("outcome " + outcome.label() + ", counted " + (long) counted);
    }
    System.exit(0);
  }
}
