package dev.tidings.imports;

import static java.util.Objects.requireNonNull;

import java.util.function.LongConsumer;

/**
 * How to run one import. {@code progress} receives the number of rows read so far, every
 * {@value ImportLimits#PROGRESS_EVERY} rows and once at the end; it runs on the importing thread, so keep it cheap.
 * {@code chunkRows} is how many rows are staged, checked and merged together (see {@link BulkImporter}): larger
 * chunks cost fewer round trips, smaller ones start the merge sooner; tests use tiny chunks to cross boundaries.
 * {@code news} false says that what the import adds is not news: its transaction sets {@code tidings.news} to
 * {@code off}, which the tables' news triggers obey (products new to the catalogue or back in stock are stored
 * and nobody is told), e.g. for a shop's first import of a catalogue it has had for years.
 */
public record ImportOptions(ImportMode mode, LongConsumer progress, int chunkRows, boolean news) {
  static final int DEFAULT_CHUNK_ROWS = 25_000;

  public ImportOptions {
    requireNonNull(mode, "mode");
    requireNonNull(progress, "progress");
    if (chunkRows < 1)
      throw new IllegalArgumentException("chunkRows must be >= 1, got " + chunkRows);
  }

  public ImportOptions(ImportMode mode, LongConsumer progress, int chunkRows) {
    this(mode, progress, chunkRows, true);
  }

  ImportOptions(ImportMode mode, LongConsumer progress) {
    this(mode, progress, DEFAULT_CHUNK_ROWS);
  }

  public static ImportOptions defaults() {
    return new ImportOptions(ImportMode.VALID_ROWS, rows -> {});
  }

  public static ImportOptions allOrNothing() {
    return defaults().withMode(ImportMode.ALL_OR_NOTHING);
  }

  public ImportOptions withMode(ImportMode newMode) {
    return new ImportOptions(newMode, progress, chunkRows, news);
  }

  public ImportOptions withProgress(LongConsumer newProgress) {
    return new ImportOptions(mode, newProgress, chunkRows, news);
  }

  ImportOptions withChunkRows(int newChunkRows) {
    return new ImportOptions(mode, progress, newChunkRows, news);
  }

  /** These options with {@code news}: false for an import whose new records are not news. */
  public ImportOptions withNews(boolean newNews) {
    return new ImportOptions(mode, progress, chunkRows, newNews);
  }
}
