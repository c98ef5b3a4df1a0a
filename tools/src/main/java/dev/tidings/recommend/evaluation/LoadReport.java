package dev.tidings.recommend.evaluation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a reader kept and why it dropped the rest, by reason, for the report and the docs. */
public record LoadReport(long linesRead, long rowsKept, Map<String, Long> droppedByReason) {
  public LoadReport {
    droppedByReason = Collections.unmodifiableMap(new LinkedHashMap<>(droppedByReason));
  }
}
