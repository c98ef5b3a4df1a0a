package dev.tidings.storage;

import java.util.Map;
import java.util.Optional;

/**
 * How the owner of a table repairs the rows an earlier version stored that today's input rules refuse
 * (rules live in Java, so no SQL migration can find them): {@code tidings migrate} calls {@link
 * #repairSome} page after page, in key order, until it says it is done. A step reads one page of keys
 * and writes only the rows it repairs, each guarded by the value it read, so a write that changed the
 * row meanwhile wins; a step never holds a lock past its own statements. Repairing again finds nothing.
 */
public interface StoredRowRepair {
  /** The table it repairs: the label of what it reports. */
  String table();

  /**
   * Checks up to {@code batch} rows with a key after {@code after} (from the first when empty) and
   * repairs those it can.
   */
  Step repairSome(Optional<String> after, int batch);

  /**
   * What one step did.
   *
   * @param repaired rows repaired, by the column it changed (a row may count under several)
   * @param unrepairable rows left as they are, by the column that makes them unreadable: a field the
   *     row cannot do without (its reads leave it out); the owner's documentation says what to do
   * @param last the key of the last row checked, where the next step starts; empty when none was
   * @param done fewer rows than the batch were left: the next step would check none
   */
  record Step(
      Map<String, Long> repaired,
      Map<String, Long> unrepairable,
      Optional<String> last,
      boolean done) {
    public Step {
      repaired = Map.copyOf(repaired);
      unrepairable = Map.copyOf(unrepairable);
    }
  }
}
