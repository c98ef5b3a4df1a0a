package dev.tidings.sample;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Writes a believable shop (products, subscribers, follows, a week of events) as bulk-import files,
 * row by row: memory stays flat whatever the size. The same spec always yields the same bytes.
 *
 * <pre>{@code
 * var spec = new SampleShopSpec(42, 10_000, 50_000, Instant.parse("2026-01-05T00:00:00Z"), 20, publicUrl);
 * SampleCounts counts = SampleShop.write(spec, Path.of("sample"), SampleFormat.CSV);
 * SampleShop.writeProducts(spec.withProducts(1_000_000), Path.of("products.csv"), SampleFormat.CSV);
 * }</pre>
 */
public final class SampleShop {
  private static final int PROGRESS_EVERY = 10_000;

  private SampleShop() {}

  /** Writes products, subscribers, follows and events as {@code <kind>.<ext>} into {@code directory}. */
  public static SampleCounts write(SampleShopSpec spec, Path directory, SampleFormat format) {
    return write(spec, directory, format, SampleProgress.NONE);
  }

  public static SampleCounts write(
      SampleShopSpec spec, Path directory, SampleFormat format, SampleProgress progress) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + directory, e);
    }
    String ext = "." + format.extension();
    long products = writeProducts(spec, directory.resolve("products" + ext), format, progress);
    long subscribers =
        writeSubscribers(spec, directory.resolve("subscribers" + ext), format, progress);
    long follows = writeFollows(spec, directory.resolve("follows" + ext), format, progress);
    long events = writeEvents(spec, directory.resolve("events" + ext), format, progress);
    return new SampleCounts(products, subscribers, follows, events);
  }

  /** {@code spec.products()} products; returns the rows written. */
  public static long writeProducts(SampleShopSpec spec, Path file, SampleFormat format) {
    return writeProducts(spec, file, format, SampleProgress.NONE);
  }

  public static long writeProducts(
      SampleShopSpec spec, Path file, SampleFormat format, SampleProgress progress) {
    return toFile(file, out -> writeProducts(spec, out, format, progress));
  }

  public static long writeProducts(
      SampleShopSpec spec, OutputStream out, SampleFormat format, SampleProgress progress) {
    var products = new Products(spec);
    try (var sink = RowSink.open(out, format, Products.COLUMNS)) {
      var counter = new Counter("products", spec.products(), progress);
      for (long i = 0; i < spec.products(); i++) {
        sink.row(products.row(products.product(i)));
        counter.add();
      }
      return counter.done();
    }
  }

  /** {@code spec.subscribers()} subscribers; returns the rows written. */
  public static long writeSubscribers(SampleShopSpec spec, Path file, SampleFormat format) {
    return writeSubscribers(spec, file, format, SampleProgress.NONE);
  }

  public static long writeSubscribers(
      SampleShopSpec spec, Path file, SampleFormat format, SampleProgress progress) {
    return toFile(file, out -> writeSubscribers(spec, out, format, progress));
  }

  public static long writeSubscribers(
      SampleShopSpec spec, OutputStream out, SampleFormat format, SampleProgress progress) {
    var subscribers = new Subscribers(spec);
    try (var sink = RowSink.open(out, format, Subscribers.COLUMNS)) {
      var counter = new Counter("subscribers", spec.subscribers(), progress);
      for (long i = 0; i < spec.subscribers(); i++) {
        sink.row(subscribers.row(subscribers.subscriber(i)));
        counter.add();
      }
      return counter.done();
    }
  }

  /** The follows of the spec's subscribers; returns the rows written. */
  public static long writeFollows(SampleShopSpec spec, Path file, SampleFormat format) {
    return writeFollows(spec, file, format, SampleProgress.NONE);
  }

  public static long writeFollows(
      SampleShopSpec spec, Path file, SampleFormat format, SampleProgress progress) {
    return toFile(file, out -> writeFollows(spec, out, format, progress));
  }

  public static long writeFollows(
      SampleShopSpec spec, OutputStream out, SampleFormat format, SampleProgress progress) {
    var follows = new Follows(spec);
    return perSubscriber(
        spec, out, format, progress, "follows", Follows.COLUMNS, follows::forSubscriber);
  }

  /** The week of events of the spec's subscribers; returns the rows written. */
  public static long writeEvents(SampleShopSpec spec, Path file, SampleFormat format) {
    return writeEvents(spec, file, format, SampleProgress.NONE);
  }

  public static long writeEvents(
      SampleShopSpec spec, Path file, SampleFormat format, SampleProgress progress) {
    return toFile(file, out -> writeEvents(spec, out, format, progress));
  }

  public static long writeEvents(
      SampleShopSpec spec, OutputStream out, SampleFormat format, SampleProgress progress) {
    var events = new Events(spec, new Products(spec));
    return perSubscriber(
        spec, out, format, progress, "events", Events.COLUMNS, events::forSubscriber);
  }

  private interface PerSubscriber {
    void forSubscriber(long subscriber, Consumer<Object[]> rows);
  }

  private static long perSubscriber(
      SampleShopSpec spec,
      OutputStream out,
      SampleFormat format,
      SampleProgress progress,
      String kind,
      List<String> columns,
      PerSubscriber generator) {
    try (var sink = RowSink.open(out, format, columns)) {
      var counter = new Counter(kind, -1, progress);
      for (long i = 0; i < spec.subscribers(); i++) {
        generator.forSubscriber(i, row -> {
          sink.row(row);
          counter.add();
        });
      }
      return counter.done();
    }
  }

  private interface StreamWriter {
    long write(OutputStream out);
  }

  private static long toFile(Path file, StreamWriter writer) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      try (var out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
        return writer.write(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static final class Counter {
    private final String kind;
    private final long expected;
    private final SampleProgress progress;
    private long written;

    Counter(String kind, long expected, SampleProgress progress) {
      this.kind = kind;
      this.expected = expected;
      this.progress = progress;
    }

    void add() {
      if (++written % PROGRESS_EVERY == 0) progress.rowsWritten(kind, written, expected);
    }

    long done() {
      progress.rowsWritten(kind, written, expected < 0 ? written : expected);
      return written;
    }
  }
}
