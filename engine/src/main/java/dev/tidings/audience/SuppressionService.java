package dev.tidings.audience;

import dev.tidings.EmailAddress;
import dev.tidings.PageLimit;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.audience.Suppressed;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Addresses never to mail (suppressions), whether or not a subscriber has them. Addresses are stored
 * normalised ({@link EmailAddress}: the domain in lower-case ASCII, punycode for an internationalised one)
 * and compared case-insensitively; a lookup matches an address both as given and normalised, so rows kept
 * from before the rule still match.
 */
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
  public Suppression suppress(Suppression given) {
    return add(given).stored();
  }

  /** The subscriber whose address it is, when there is one, is told suppressed (by id, never the address). */
  private static void tellSuppressed(Handle handle, Suppression stored) {
    SubscriberTable.findByEmail(handle, stored.email())
        .ifPresent(subscriber -> EventOutbox.ON.append(
            handle,
            List.of(new Suppressed(subscriber.id(), stored.reason().wire(), stored.createdAt()))));
  }

  /** What {@link #add} did: the suppression as stored, and whether this call stored it. */
  public record Added(Suppression stored, boolean isNew) {}

  /**
   * {@link #suppress}, telling whether the address was suppressed by this call or already was (what
   * the suppression changes are counted by).
   */
  public Added add(Suppression given) {
    var suppression = new Suppression(
        EmailAddress.normalisedOrAsGiven(given.email()), given.reason(), given.createdAt());
    return jdbi.inTransaction(handle -> {
      // Read back either way: the stored row is the answer (a new statement sees a concurrent
      // insert that refused ours, under read committed). A concurrent unsuppress can delete that
      // row between the two statements; then the address is free again and the insert is retried.
      for (int attempt = 1; ; attempt++) {
        boolean inserted = SuppressionTable.insertUnlessSuppressed(handle, suppression);
        var stored = SuppressionTable.find(handle, forms(suppression.email()));
        if (stored.isPresent()) {
          if (inserted) tellSuppressed(handle, stored.get());
          return new Added(stored.get(), inserted);
        }
        if (attempt == MAX_ATTEMPTS)
          throw new IllegalStateException("the suppression of an address was deleted "
              + MAX_ATTEMPTS + " times while it was being written");
      }
    });
  }

  /**
   * Suppresses the addresses of subscribers at once, inside the caller's transaction ({@code handle}):
   * {@link SuppressionListener} does it for the funnel's bounces, complaints and unsubscribes. Returns
   * how many addresses were new.
   */
  static int suppressSubscribers(
      Handle handle, Map<String, SuppressionReason> bySubscriber, Instant at) {
    if (bySubscriber.isEmpty()) return 0;
    List<String> ids = new ArrayList<>(bySubscriber.size());
    List<String> reasons = new ArrayList<>(bySubscriber.size());
    bySubscriber.forEach((id, reason) -> {
      ids.add(id);
      reasons.add(reason.wire());
    });
    var suppressed = SuppressionTable.insertForSubscribers(handle, ids, reasons, at);
    EventOutbox.ON.append(
        handle,
        suppressed.entrySet().stream()
            .map(entry -> new Suppressed(entry.getKey(), entry.getValue(), at))
            .toList());
    return suppressed.size();
  }

  public Optional<Suppression> get(String email) {
    return jdbi.withHandle(handle -> SuppressionTable.find(handle, forms(email)));
  }

  /** Whether mail to this address (compared case-insensitively, as given or normalised) must not be sent. */
  public boolean isSuppressed(String email) {
    return jdbi.withHandle(handle -> SuppressionTable.exists(handle, forms(email)));
  }

  /**
   * Which of {@code emails} must not be mailed (each as given), read in one query (a sending worker's
   * batch): an address is suppressed when it, or its normalised form, is, compared case-insensitively.
   */
  public Set<String> suppressedAmong(Collection<String> emails) {
    if (emails.isEmpty()) return Set.of();
    Map<String, List<String>> byForm = new HashMap<>(emails.size() * 2);
    for (String email : emails) {
      for (String form : forms(email))
        byForm.computeIfAbsent(form, f -> new ArrayList<>(1)).add(email);
    }
    List<String> found =
        jdbi.withHandle(handle -> SuppressionTable.suppressedAmong(handle, byForm.keySet()));
    Set<String> suppressed = new HashSet<>();
    for (String form : found) suppressed.addAll(byForm.getOrDefault(form, List.of()));
    return suppressed;
  }

  /** False when the address was not suppressed. */
  public boolean unsuppress(String email) {
    return jdbi.withHandle(handle -> SuppressionTable.delete(handle, forms(email)));
  }

  /** The address lower-cased, as given and normalised (one or two forms). */
  static List<String> forms(String email) {
    String given = email.toLowerCase(Locale.ROOT);
    String normalised = EmailAddress.normalisedOrAsGiven(email).toLowerCase(Locale.ROOT);
    return given.equals(normalised) ? List.of(given) : List.of(given, normalised);
  }

  /** Suppressions ordered by lower-cased address, after the address {@code after} (keyset pagination). */
  public List<Suppression> list(Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> SuppressionTable.page(handle, after, limit));
  }
}
