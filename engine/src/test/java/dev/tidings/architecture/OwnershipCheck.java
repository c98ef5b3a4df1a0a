package dev.tidings.architecture;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The table ownership of {@link TableOwnershipTest}, checked over the statements a JDBI instance
 * executes while it runs: installed as its statement logger, it reads each statement as sent and the
 * stack it is sent from, and keeps every crossing (the first statement of each) for the test to assert
 * on. Statements only a test or the plumbing runs (no capability on the stack) are counted, not checked.
 */
final class OwnershipCheck implements SqlLogger {
  private final Map<String, String> owners;
  private final Map<String, ExecutedSql.Crossing> crossings = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> checked = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> composed = new ConcurrentHashMap<>();
  private final AtomicLong unattributed = new AtomicLong();

  OwnershipCheck(Map<String, String> owners) {
    this.owners = Map.copyOf(owners);
  }

  @Override
  public void logBeforeExecution(StatementContext context) {
    String sql = context.getRenderedSql();
    Optional<String> caller = ExecutedSql.callerOf(Thread.currentThread().getStackTrace());
    if (caller.isEmpty()) {
      unattributed.incrementAndGet();
      return;
    }
    checked.computeIfAbsent(caller.get(), c -> new AtomicLong()).incrementAndGet();
    if (sql.contains("/*published by "))
      composed.computeIfAbsent(caller.get(), c -> new AtomicLong()).incrementAndGet();
    try {
      for (ExecutedSql.Crossing crossing : ExecutedSql.crossings(sql, caller.get(), owners))
        crossings.putIfAbsent(crossing.key(), crossing);
    } catch (IllegalArgumentException e) {
      // marks out of order are a published fragment cut or spliced wrongly: a finding, not a crash
      crossings.putIfAbsent(
          caller.get() + " -> unbalanced marks",
          new ExecutedSql.Crossing(caller.get(), "unbalanced marks", "", sql));
    }
  }

  /** Each crossing seen so far ("capability -> table"), with the first statement that made it. */
  Map<String, ExecutedSql.Crossing> crossings() {
    return new TreeMap<>(crossings);
  }

  /** Statements checked, by the capability that ran them. */
  Map<String, Long> checked() {
    return counts(checked);
  }

  /** Statements checked that compose what another capability published, by who ran them. */
  Map<String, Long> composed() {
    return counts(composed);
  }

  private static Map<String, Long> counts(Map<String, AtomicLong> counters) {
    Map<String, Long> counts = new TreeMap<>();
    counters.forEach((capability, count) -> counts.put(capability, count.get()));
    return counts;
  }

  /** Statements with no capability on their stack (a test's own setup). */
  long unattributed() {
    return unattributed.get();
  }
}
