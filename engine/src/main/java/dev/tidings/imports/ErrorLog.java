package dev.tidings.imports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The row errors of one import: the {@value ImportLimits#MAX_REPORTED_ERRORS} with the lowest lines, and how
 * many more there were. Errors arrive from the parsing thread and from the database checks of chunks at the
 * same time, in no particular order, so the kept set is chosen by line, not by arrival.
 */
final class ErrorLog {
  private final PriorityQueue<RowError> kept =
      new PriorityQueue<>(Comparator.comparingLong(RowError::line).reversed());
  private long dropped;

  synchronized void add(long line, String reason) {
    kept.add(new RowError(line, reason));
    if (kept.size() > ImportLimits.MAX_REPORTED_ERRORS) {
      kept.poll();
      dropped++;
    }
  }

  synchronized boolean truncated() {
    return dropped > 0;
  }

  synchronized List<RowError> sorted() {
    var sorted = new ArrayList<>(kept);
    sorted.sort(Comparator.comparingLong(RowError::line));
    return sorted;
  }
}
