package dev.tidings.imports;

import static java.util.Objects.requireNonNull;

import java.util.function.LongConsumer;

/**
 * How to run one import. {@code progress} receives the number of rows read so far, every
 * {@value ImportLimits#PROGRESS_EVERY} rows and once at the end; it runs on the importing thread, so keep it cheap.
 */
public record ImportOptions(ImportMode mode, LongConsumer progress) {
  public ImportOptions {
    requireNonNull(mode, "mode");
    requireNonNull(progress, "progress");
  }

  public static ImportOptions defaults() {
    return new ImportOptions(ImportMode.VALID_ROWS, rows -> {});
  }

  public static ImportOptions allOrNothing() {
    return defaults().withMode(ImportMode.ALL_OR_NOTHING);
  }

  public ImportOptions withMode(ImportMode newMode) {
    return new ImportOptions(newMode, progress);
  }

  public ImportOptions withProgress(LongConsumer newProgress) {
    return new ImportOptions(mode, newProgress);
  }
}
