package dev.tidings.delivery;

import java.util.Locale;
import java.util.Optional;

/**
 * What can happen to a message, each with the priority that orders them: a message's current status
 * only moves to a status of higher priority (seed 02's version number). The main line is QUEUED <
 * IN_GATEWAY < SENT < DELIVERED < OPENED < CLICKED; the failure branches sit where they end a message's
 * story: DEFERRED is a temporary failure before it was accepted (a later SENT or DELIVERED replaces
 * it), DROPPED (the provider would not send what it accepted) and BOUNCED end it instead of DELIVERED, COMPLAINED and UNSUBSCRIBED come after the
 * reader saw it and outrank every engagement. docs/architecture.md draws the lattice.
 */
public enum DeliveryStatus {
  QUEUED(10, Optional.empty()),
  IN_GATEWAY(20, Optional.of(QUEUED)),
  DEFERRED(25, Optional.of(IN_GATEWAY)),
  SENT(30, Optional.of(IN_GATEWAY)),
  DROPPED(35, Optional.of(SENT)),
  BOUNCED(40, Optional.of(SENT)),
  DELIVERED(50, Optional.of(SENT)),
  OPENED(60, Optional.of(DELIVERED)),
  CLICKED(70, Optional.of(OPENED)),
  UNSUBSCRIBED(80, Optional.of(DELIVERED)),
  COMPLAINED(90, Optional.of(DELIVERED));

  private final int priority;
  private final Optional<DeliveryStatus> parent;

  DeliveryStatus(int priority, Optional<DeliveryStatus> parent) {
    this.priority = priority;
    this.parent = parent;
  }

  public int priority() {
    return priority;
  }

  /** The status this one implies happened before (CLICKED implies OPENED implies DELIVERED ...). */
  public Optional<DeliveryStatus> parent() {
    return parent;
  }

  /** The status as the API writes it: lower case. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status a wire name names (any case), if it is one. */
  public static Optional<DeliveryStatus> ofWire(String text) {
    for (DeliveryStatus status : values())
      if (status.name().equalsIgnoreCase(text)) return Optional.of(status);
    return Optional.empty();
  }
}
