package dev.tidings.storage;

/**
 * Every PostgreSQL advisory lock Tidings takes, with its number and what it serialises. Two holders
 * of one number would wait on each other for unrelated work (or, with a session lock, let each other
 * in), so a number belongs here before it is used anywhere, and {@code AdvisoryLockTest} checks that
 * no two entries share one.
 *
 * <p>A lock is either {@linkplain Form#SINGLE one key} (the number itself, a {@code bigint}) or a
 * {@linkplain Form#SPACE key space}: the number is the first of two {@code int} keys and the second
 * is a hash of the thing locked (a message, an item). PostgreSQL keeps the two forms apart, but the
 * numbers stay unique across both, so that a reader never has to know which form a number is.
 */
public enum AdvisoryLock {
  AGGREGATE_DAY_PARTITIONS(7_301, Form.SINGLE, "creating and dropping aggregate_days partitions"),
  AGGREGATION_REBUILD(
      7_302, Form.SINGLE, "a rebuild of the aggregates, shared by every counting round"),
  DISTINCT_PEOPLE_PARTITIONS(
      7_303, Form.SINGLE, "creating and dropping aggregate_people partitions"),
  OPTIMIZE_APPLY(7_305, Form.SINGLE, "applying an optimisation's result to item configurations"),
  ITEM_CONFIGURATIONS(7_306, Form.SPACE, "writing one item's configurations"),
  PRODUCT_NEWS_PUBLISH(7_307, Form.SINGLE, "publishing product news to the notification buckets"),
  NOTIFICATION_PARTITIONS(
      7_308, Form.SINGLE, "creating and dropping notification_buckets partitions"),
  RETENTION_RUN(7_310, Form.SINGLE, "a retention run: one node at a time"),
  EVENT_STREAM(
      7_312, Form.SINGLE, "feeding the event log to the RabbitMQ stream: one node at a time"),
  EVENT_RELAY(
      7_311,
      Form.SINGLE,
      "relaying the event outbox: one node at a time, so positions commit in order"),
  RECEIPT_MESSAGE(9_001, Form.SPACE, "parking or applying the receipts of one message");

  /** How the number is passed to {@code pg_advisory_*}. */
  public enum Form {
    /** {@code pg_advisory_xact_lock(number)}. */
    SINGLE,
    /** {@code pg_advisory_xact_lock(number, hashtext(thing))}. */
    SPACE
  }

  private final int number;
  private final Form form;
  private final String purpose;

  AdvisoryLock(int number, Form form, String purpose) {
    this.number = number;
    this.form = form;
    this.purpose = purpose;
  }

  /** The key of a {@link Form#SINGLE} lock, or the first key of a {@link Form#SPACE}. */
  public int number() {
    return number;
  }

  /** The one key of a {@link Form#SINGLE} lock, as {@code pg_advisory_*(bigint)} takes it. */
  public long key() {
    if (form != Form.SINGLE)
      throw new IllegalStateException(this + " is a key space: lock one thing in it");
    return number;
  }

  public Form form() {
    return form;
  }

  public String purpose() {
    return purpose;
  }
}
