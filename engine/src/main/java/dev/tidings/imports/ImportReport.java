package dev.tidings.imports;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of one import.
 *
 * @param kind products, subscribers, follows or events
 * @param rowsRead data rows read (the header and blank lines not counted)
 * @param imported valid rows applied (a row superseded by a later row with the same key counts: the
 *     file's last word is what it asked for)
 * @param ignored valid rows that changed nothing by design (an event id seen before)
 * @param rejected invalid rows; each is in {@code errors} until the cap
 * @param errors the first {@value ImportLimits#MAX_REPORTED_ERRORS} row errors, by line
 * @param truncatedErrors more rows were rejected than {@code errors} holds
 * @param committed whether anything was written; false means the database is as before the import
 * @param failure why the whole file was refused (a malformed file), when it was
 */
public record ImportReport(
    String kind,
    long rowsRead,
    long imported,
    long ignored,
    long rejected,
    List<RowError> errors,
    boolean truncatedErrors,
    boolean committed,
    Optional<String> failure,
    Duration duration) {
  public ImportReport {
    errors = List.copyOf(errors);
  }

  public double rowsPerSecond() {
    double seconds = duration.toNanos() / 1e9;
    return seconds <= 0 ? 0 : rowsRead / seconds;
  }
}
