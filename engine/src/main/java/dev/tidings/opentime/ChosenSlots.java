package dev.tidings.opentime;

import dev.tidings.message.MessageId;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The products one email's slots show, in slot order, and how they came to be chosen.
 *
 * @param productIds distinct; fewer than the email's slots when the catalog could not fill them
 */
public record ChosenSlots(MessageId message, List<String> productIds, Instant chosenAt, How how) {
  /** Where a request got the list from. */
  public enum How {
    /** This request computed it, under the cluster-wide lock. */
    COMPUTED,
    /** Another request (on any node) computed it; this one joined. */
    JOINED,
    /** This node had it from an earlier request for the same email. */
    NEAR_CACHE,
    /** Chosen earlier and kept in the database, after the coordinator forgot it. */
    STORED,
    /** The coordinator was slow or down: chosen here, the same way, without the lock. */
    FALLBACK
  }

  public ChosenSlots {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(chosenAt, "chosenAt");
    Objects.requireNonNull(how, "how");
    productIds = List.copyOf(productIds);
    if (new HashSet<>(productIds).size() != productIds.size())
      throw new IllegalArgumentException("a product repeats across the slots of " + message);
  }

  /** The product in slot {@code slot}, if the list reaches that far. */
  public Optional<String> productAt(int slot) {
    return slot >= 0 && slot < productIds.size()
        ? Optional.of(productIds.get(slot))
        : Optional.empty();
  }

  ChosenSlots how(How other) {
    return new ChosenSlots(message, productIds, chosenAt, other);
  }

  /** The coordinator's value: the product ids (which never hold commas) joined by commas, then the time. */
  String encode() {
    return chosenAt.toEpochMilli() + ";" + String.join(",", productIds);
  }

  static ChosenSlots decode(MessageId message, String value, How how) {
    int split = value.indexOf(';');
    if (split < 0) throw new IllegalArgumentException("not a slot list: " + value);
    Instant at = Instant.ofEpochMilli(Long.parseLong(value.substring(0, split)));
    String ids = value.substring(split + 1);
    return new ChosenSlots(message, ids.isEmpty() ? List.of() : List.of(ids.split(",")), at, how);
  }
}
