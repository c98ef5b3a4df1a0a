package dev.tidings.queue;

/** What a handler decided about a delivery. */
public sealed interface Disposition {
  /** Done; the message is removed. */
  record Ack() implements Disposition {}

  /** Try again later; after {@code maxDeliveries} deliveries the message is dead-lettered with this reason. */
  record Retry(String reason) implements Disposition {}

  /** Never going to work (a poison message): dead-letter it now with this reason. */
  record Reject(String reason) implements Disposition {}

  Disposition ACK = new Ack();

  static Disposition retry(String reason) {
    return new Retry(reason);
  }

  static Disposition reject(String reason) {
    return new Reject(reason);
  }
}
