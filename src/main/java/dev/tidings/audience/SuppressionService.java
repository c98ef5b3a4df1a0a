package dev.tidings.audience;

import dev.tidings.PageLimit;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Addresses never to mail (suppressions), compared case-insensitively, whether or not a subscriber has them. */
public final class SuppressionService {
  /** Largest page {@link #list} returns. */
  public static final int MAX_PAGE = PageLimit.MAX;

  /** Inserts tried when a concurrent unsuppress keeps deleting the row ours conflicted with. */
  private static final int MAX_ATTEMPTS = 100;

  private final Jdbi jdbi;

  /** The clock is not used yet: a suppression carries its own date, which the caller chooses. */
  public SuppressionService(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
  }

  /** Suppresses an address; when it already was, the existing suppression (its first reason and date) is kept and returned. */
  public Suppression suppress(Suppression suppression) {
    return jdbi.inTransaction(handle -> {
      // Read back either way: the stored row is the answer (a new statement sees a concurrent
      // insert that refused ours, under read committed). A concurrent unsuppress can delete that
      // row between the two statements; then the address is free again and the insert is retried.
      for (int attempt = 1; ; attempt++) {
        SuppressionTable.insertUnlessSuppressed(handle, suppression);
        var stored = SuppressionTable.find(handle, suppression.email());
        if (stored.isPresent()) return stored.get();
        if (attempt == MAX_ATTEMPTS)
          throw new IllegalStateException("the suppression of an address was deleted "
              + MAX_ATTEMPTS + " times while it was being written");
      }
    });
  }

  /**
   * Suppresses the addresses of subscribers at once, inside the caller's transaction ({@code handle}):
   * the delivery capability does it in the same transaction that records a bounce, complaint or
   * unsubscribe, so no receipt is applied without its suppression. Returns how many addresses were new.
   */
  public static int suppressSubscribers(
      org.jdbi.v3.core.Handle handle,
      Map<String, SuppressionReason> bySubscriber,
      java.time.Instant at) {
    if (bySubscriber.isEmpty()) return 0;
    List<String> ids = new java.util.ArrayList<>(bySubscriber.size());
    List<String> reasons = new java.util.ArrayList<>(bySubscriber.size());
    bySubscriber.forEach((id, reason) -> {
      ids.add(id);
      reasons.add(reason.wire());
    });
    return SuppressionTable.insertForSubscribers(handle, ids, reasons, at);
  }

  public Optional<Suppression> get(String email) {
    return jdbi.withHandle(handle -> SuppressionTable.find(handle, email));
  }

  /** Whether mail to this address (compared case-insensitively) must not be sent. */
  public boolean isSuppressed(String email) {
    return jdbi.withHandle(handle -> SuppressionTable.exists(handle, email));
  }

  /** Which of {@code emails} must not be mailed, lower-cased, read in one query (a sending worker's batch). */
  public java.util.Set<String> suppressedAmong(java.util.Collection<String> emails) {
    if (emails.isEmpty()) return java.util.Set.of();
    var lower =
        emails.stream().map(email -> email.toLowerCase(java.util.Locale.ROOT)).toList();
    return java.util.Set.copyOf(
        jdbi.withHandle(handle -> SuppressionTable.suppressedAmong(handle, lower)));
  }

  /** False when the address was not suppressed. */
  public boolean unsuppress(String email) {
    return jdbi.withHandle(handle -> SuppressionTable.delete(handle, email));
  }

  /** Suppressions ordered by lower-cased address, after the address {@code after} (keyset pagination). */
  public List<Suppression> list(Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> SuppressionTable.page(handle, after, limit));
  }
}
