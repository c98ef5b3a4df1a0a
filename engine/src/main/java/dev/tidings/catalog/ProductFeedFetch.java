package dev.tidings.catalog;

import dev.tidings.InvalidInputException;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.fetch.FetchPurpose;
import dev.tidings.fetch.FetchResult;
import dev.tidings.fetch.FileFetchResult;
import dev.tidings.fetch.GuardedFetcher;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.jobs.Election;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduled product feed ({@code TIDINGS_PRODUCT_FEED_URL}): one round fetches the feed through the
 * guarded fetcher, conditionally (the last answer's ETag and Last-Modified, shared by all nodes in the
 * database), and imports it as a full snapshot, all or nothing: its products are upserted as the feed's,
 * the feed's products it no longer lists become unavailable, and a feed with one bad row changes nothing.
 *
 * <p>The body is never held in memory: the fetcher streams it to a temporary file in the work directory
 * (within {@code TIDINGS_PRODUCT_FEED_MAX_BYTES}), the import reads it from there as a stream (gunzipping
 * as it goes, within the import's limits), and the file is deleted when the round ends, however it ends.
 * A file that outlived its round because the process died in it is deleted when the next round starts.
 *
 * <p>One node fetches per interval across the cluster: a round runs under {@link ComputeOnce} with a key
 * for the feed and the interval it falls in, so the first node of an interval fetches and the others join
 * its outcome. The first successful import of a URL is not news (the shop's catalogue is not new to its
 * followers); later ones are.
 */
public final class ProductFeedFetch {
  private static final Logger LOG = LoggerFactory.getLogger(ProductFeedFetch.class);

  /** The files {@link GuardedFetcher#fetchToFile} keeps a body in, as a glob. */
  static final String LEFTOVERS = "fetch-*.part";

  /** What a round came to; {@link #label()} is the metric's label. */
  public enum Outcome {
    /** Fetched and imported. */
    UPDATED,
    /** The server said the feed has not changed (304); nothing changed. */
    NOT_MODIFIED,
    /** The guard refused the URL (a private address, a scheme, a content type, too large). */
    REFUSED,
    /** No usable answer (unreachable, an error status, too slow) or the database failed. */
    FAILED,
    /**
     * Fetched but not a feed, past one of the import's limits (an over-long element or line, a
     * compression bomb), or a row was invalid: nothing was written.
     */
    INVALID,
    /** Another node fetched in this interval (or is fetching); this node did nothing. */
    ELSEWHERE;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final URI url;
  private final Duration interval;
  private final CatalogService catalog;
  private final Jdbi jdbi;
  private final GuardedFetcher fetcher;
  private final ComputeOnce once;
  private final InstantSource clock;
  private final ProductFeedMetrics metrics;
  private final Path workDirectory;

  /**
   * One round at a time in this process, so that the start of a round never takes another's file for
   * a leftover.
   */
  private final ReentrantLock rounds = new ReentrantLock();

  /**
   * @param workDirectory where a fetched body is kept while it is imported (created when missing); each
   *     round's file is deleted when the round ends
   */
  public ProductFeedFetch(
      URI url,
      Duration interval,
      CatalogService catalog,
      Jdbi jdbi,
      GuardedFetcher fetcher,
      ComputeOnce once,
      InstantSource clock,
      MeterRegistry registry,
      Path workDirectory) {
    if (interval.compareTo(Duration.ofMinutes(1)) < 0)
      throw new IllegalArgumentException("the interval must be at least PT1M, got " + interval);
    this.url = url;
    this.interval = interval;
    this.catalog = catalog;
    this.jdbi = jdbi;
    this.fetcher = fetcher;
    this.once = once;
    this.clock = clock;
    this.metrics = new ProductFeedMetrics(registry);
    this.workDirectory = workDirectory;
  }

  /**
   * Fetches and imports the feed unless a node did so in this interval already; returns what it came
   * to ({@link Outcome#ELSEWHERE} when another node's round covers the interval).
   */
  public Outcome run() {
    long slot = clock.instant().getEpochSecond() / interval.toSeconds();
    var timings =
        new ComputeOnce.Timings(interval, interval.multipliedBy(2), Duration.ofMillis(50));
    var outcome = once.computeOnce(key(slot), timings, () -> fetchAndImport().name());
    return switch (outcome) {
      case ComputeOnce.Outcome.Computed computed -> Outcome.valueOf(computed.value());
      case ComputeOnce.Outcome.Joined joined -> Outcome.ELSEWHERE;
      case ComputeOnce.Outcome.TimedOut timedOut -> Outcome.ELSEWHERE;
    };
  }

  /**
   * One round as a background job runs it: done here, done by another node, or failed (the feed
   * unreachable or refused, which its metrics and log tell in detail).
   */
  public Election.Round round() {
    return switch (run()) {
      case UPDATED, NOT_MODIFIED -> Election.Round.RAN;
      case ELSEWHERE -> Election.Round.ELSEWHERE;
      case REFUSED, FAILED, INVALID ->
        throw new IllegalStateException("the product feed round did not import");
    };
  }

  /** The coordination key of this feed's interval; the URL hashed, as it may hold a token. */
  private String key(long slot) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(url.toString().getBytes(StandardCharsets.UTF_8));
      return "product-feed:" + HexFormat.of().formatHex(digest, 0, 12) + ":" + slot;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** One fetch and import, whatever another node does; counted. */
  public Outcome fetchAndImport() {
    Outcome outcome;
    rounds.lock();
    try {
      deleteLeftovers();
      outcome = attempt();
    } catch (RuntimeException e) {
      LOG.warn("product feed: the import failed, nothing was written", e);
      outcome = Outcome.FAILED;
    } finally {
      rounds.unlock();
    }
    metrics.fetched(outcome);
    return outcome;
  }

  /**
   * Deletes the fetched bodies an earlier process left in the work directory: a round deletes its own
   * file however it ends, but not when the process dies in it (killed, out of memory). The directory
   * is this feed's own and no other round runs now, so every such file is a leftover.
   */
  private void deleteLeftovers() {
    if (!Files.isDirectory(workDirectory)) return;
    try (DirectoryStream<Path> left = Files.newDirectoryStream(workDirectory, LEFTOVERS)) {
      for (Path file : left) {
        try {
          Files.deleteIfExists(file);
          LOG.warn(
              "product feed: deleted {}, left by a round whose process ended in it",
              file.getFileName());
        } catch (IOException e) {
          LOG.warn(
              "product feed: cannot delete {}, left by an earlier round: {}", file, e.toString());
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      // the round goes on: a leftover costs disk, not correctness
      LOG.warn(
          "product feed: cannot look for files earlier rounds left in {}: {}",
          workDirectory,
          e.toString());
    }
  }

  private Outcome attempt() {
    String key = url.toString();
    Optional<ProductFeedState> state = ProductFeedState.load(jdbi, key);
    var headers = state.map(ProductFeedState::conditionalHeaders).orElse(Map.of());
    return fetcher.fetchToFile(
        url,
        FetchPurpose.PRODUCT_FEED,
        headers,
        workDirectory,
        result -> outcome(result, state.isPresent()));
  }

  /** What a fetch came to; runs while a saved body's file exists. */
  private Outcome outcome(FileFetchResult result, boolean seenBefore) {
    Instant now = clock.instant();
    switch (result) {
      case FetchResult.Refused refused -> {
        LOG.warn("product feed: refused to fetch {}: {}", shown(), refused.reason());
        return Outcome.REFUSED;
      }
      case FetchResult.Failed failed -> {
        LOG.warn("product feed: fetching {} failed: {}", shown(), failed.reason());
        return Outcome.FAILED;
      }
      case FetchResult.NotModified notModified -> {
        ProductFeedState.saveNotModified(jdbi, url.toString(), now);
        metrics.succeeded(now);
        return Outcome.NOT_MODIFIED;
      }
      case FileFetchResult.Saved saved -> {
        return imported(saved, seenBefore, now);
      }
    }
  }

  private Outcome imported(FileFetchResult.Saved saved, boolean seenBefore, Instant now) {
    Format format;
    try {
      // the file's name says nothing (.part), so the format is told from its first bytes
      format = Format.detect(saved.file());
    } catch (InvalidInputException notAFeed) {
      format = Format.CSV;
    }
    if (!format.isFeed()) {
      LOG.warn(
          "product feed: {} is neither XML nor tab-separated text; nothing was imported", shown());
      return Outcome.INVALID;
    }
    var options = ImportOptions.allOrNothing().withNews(seenBefore);
    CatalogService.FeedSnapshot snapshot;
    try (InputStream body = Files.newInputStream(saved.file())) {
      snapshot = catalog.importFeedSnapshot(body, format, options);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the fetched feed", e);
    }
    var report = snapshot.report();
    if (!report.committed()) {
      LOG.warn(
          "product feed: {} not imported, nothing was written: {}",
          shown(),
          report
              .failure()
              .orElseGet(() -> report.rejected() + " invalid rows, the first at line "
                  + report.errors().get(0).line() + ": "
                  + report.errors().get(0).reason()));
      return Outcome.INVALID;
    }
    ProductFeedState.saveImported(jdbi, url.toString(), saved.validators(), now);
    metrics.imported(report.imported(), snapshot.markedUnavailable());
    metrics.succeeded(now);
    LOG.info(
        "product feed: {} products upserted, {} that left the feed marked unavailable{}",
        report.imported(),
        snapshot.markedUnavailable(),
        seenBefore ? "" : " (the feed's first import: not news)");
    return Outcome.UPDATED;
  }

  /** The URL without its query, which may hold a token. */
  private String shown() {
    return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
        + (url.getRawPath() == null ? "" : url.getRawPath());
  }
}
