package dev.tidings.audience;

import dev.tidings.EmailAddress;
import dev.tidings.InvalidInputException;
import dev.tidings.PageLimit;
import dev.tidings.Problem;
import dev.tidings.imports.BulkImporter;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportKind;
import dev.tidings.imports.ImportOptions;
import dev.tidings.imports.ImportReport;
import dev.tidings.storage.StoredRowRepair;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** Subscribers: single subscribers by id or email, pages in id order, and bulk import. */
public final class SubscriberService {
  /** Largest page {@link #list} returns. */
  public static final int MAX_PAGE = PageLimit.MAX;

  private static final ImportKind<Subscriber> SUBSCRIBERS =
      new ImportKind<>("subscribers", SubscriberRows.INSTANCE, new SubscriberStaging());

  /** How often a write runs when its email's owner changes under it (see {@link #owningEmail}). */
  private static final int ATTEMPTS = 3;

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final BulkImporter importer;

  public SubscriberService(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.importer = new BulkImporter(jdbi, clock);
  }

  /**
   * Creates or replaces the subscriber with this id.
   *
   * @throws InvalidInputException when the email is not one bare address or belongs to another subscriber
   */
  public Subscriber put(Subscriber subscriber) {
    Subscriber checked = subscriber.checkedForWrite();
    return owningEmail(checked, handle -> {
      SubscriberTable.upsert(handle, checked, clock.instant());
      return checked;
    });
  }

  /**
   * Creates the subscriber unless one with its id exists, in one statement, so that of two concurrent
   * creates of an id exactly one succeeds.
   *
   * @return the stored subscriber; empty when the id exists (nothing changed)
   * @throws InvalidInputException when the email belongs to another subscriber
   */
  public Optional<Subscriber> create(Subscriber subscriber) {
    Subscriber checked = subscriber.checkedForWrite();
    return owningEmail(
        checked, handle -> SubscriberTable.insertNew(handle, checked, clock.instant()));
  }

  public Optional<Subscriber> get(String id) {
    return jdbi.withHandle(handle -> SubscriberTable.find(handle, id));
  }

  /** The locales of the subscribers among {@code ids} that exist, in one query. */
  public Map<String, Locale> locales(Collection<String> ids) {
    if (ids.isEmpty()) return Map.of();
    return jdbi.withHandle(handle -> SubscriberTable.locales(handle, ids));
  }

  /**
   * Where a subscriber is placed among markets: the market named on them, and their country (for the
   * catalogue's market of that country when they name none).
   */
  public record Placement(Optional<String> market, Optional<String> country) {}

  /** The placements of the subscribers among {@code ids} that exist, in one query. */
  public Map<String, Placement> placements(Collection<String> ids) {
    if (ids.isEmpty()) return Map.of();
    return jdbi.withHandle(handle -> SubscriberTable.placements(handle, ids));
  }

  /**
   * Names the market a subscriber belongs to, or clears it (empty); false when there is no such
   * subscriber. The code must match the market code rule; the market need not exist yet.
   */
  public boolean placeInMarket(String id, Optional<String> market) {
    market.ifPresent(code -> {
      if (!Subscriber.MARKET_CODE.matcher(code).matches())
        throw new InvalidInputException(Subscriber.marketProblem(code));
    });
    return jdbi.withHandle(handle -> handle
            .createUpdate("UPDATE subscribers SET market = :market WHERE id = :id")
            .bind("market", market.orElse(null))
            .bind("id", id)
            .execute()
        > 0);
  }

  /** The subscribers among {@code ids} that exist, by id, read in one query (a sending worker's batch). */
  public Map<String, Subscriber> getAll(Collection<String> ids) {
    if (ids.isEmpty()) return Map.of();
    var found = jdbi.withHandle(handle -> SubscriberTable.findAll(handle, ids));
    var byId = new HashMap<String, Subscriber>(found.size() * 2);
    for (Subscriber subscriber : found) byId.put(subscriber.id(), subscriber);
    return byId;
  }

  /** The subscriber with this email, compared case-insensitively after normalising it (see {@link EmailAddress}). */
  public Optional<Subscriber> findByEmail(String email) {
    return jdbi.withHandle(
        handle -> SubscriberTable.findByEmail(handle, EmailAddress.normalisedOrAsGiven(email)));
  }

  /** Up to {@code limit} subscribers in id order after the id {@code after} (keyset pagination). */
  public List<Subscriber> list(Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> SubscriberTable.page(handle, after, limit));
  }

  /**
   * Up to {@code limit} subscribers in id order after the id {@code after} whose id or email starts
   * with the search's text, or whose name holds it, compared case-insensitively (keyset pagination).
   */
  public List<Subscriber> search(SubscriberSearch search, Optional<String> after, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> SubscriberTable.search(handle, search, after, limit));
  }

  /** When a subscriber was first stored and last written. */
  public record Dates(Instant createdAt, Instant updatedAt) {}

  /** The subscriber's {@link Dates}; empty when there is no such subscriber. */
  public Optional<Dates> dates(String id) {
    return jdbi.withHandle(handle -> SubscriberTable.dates(handle, id));
  }

  /** Deletes the subscriber and its follows; false when there was none. Suppressions stay (they are per address). */
  public boolean delete(String id) {
    return jdbi.withHandle(handle -> SubscriberTable.delete(handle, id));
  }

  /**
   * What repairs the subscribers an earlier version stored that today's rules refuse (run by {@code
   * tidings migrate}; see {@link SubscriberRepair}).
   */
  public StoredRowRepair storedRowRepair() {
    return new SubscriberRepair(jdbi);
  }

  public long count() {
    return jdbi.withHandle(SubscriberTable::count);
  }

  /** Bulk import from a file (.csv, .jsonl or .ndjson, optionally .gz); see {@link BulkImporter} for bad rows. */
  public ImportReport importFile(Path file, ImportOptions options) {
    return importer.run(SUBSCRIBERS, file, options);
  }

  /** Bulk import from a stream, e.g. a request body; gzip is recognised from the content. */
  public ImportReport importStream(InputStream in, Format format, ImportOptions options) {
    return importer.run(SUBSCRIBERS, in, format, options);
  }

  /**
   * Runs a write of {@code subscriber}, whose email the unique index refuses when another subscriber has it;
   * the owner is looked up only then, to name it. When the owner found is this very id (a concurrent write of
   * it committed meanwhile) or none (deleted meanwhile), the write can succeed now, so it runs again. So it
   * does when PostgreSQL broke a deadlock by failing it: two concurrent upserts of one new id and email
   * can wait on each other across the id's key and the email's (the arbiter is only the id's), and the
   * statement, its own transaction, is whole again once the other has committed.
   */
  private static boolean deadlocked(UnableToExecuteStatementException e) {
    return e.getCause() instanceof SQLException sql && "40P01".equals(sql.getSQLState());
  }

  private <R> R owningEmail(Subscriber subscriber, HandleCallback<R, RuntimeException> write) {
    return jdbi.withHandle(handle -> {
      for (int attempt = 1; ; attempt++) {
        try {
          return write.withHandle(handle);
        } catch (UnableToExecuteStatementException e) {
          if (deadlocked(e) && attempt < ATTEMPTS) continue;
          if (!SubscriberTable.violatesEmailKey(e)) throw e;
          Optional<String> owner = SubscriberTable.findByEmail(handle, subscriber.email())
              .map(Subscriber::id)
              .filter(id -> !id.equals(subscriber.id()));
          if (owner.isPresent()) {
            throw new InvalidInputException(Problem.at(
                "email",
                Problem.Rule.OTHER,
                "email " + subscriber.email() + " already belongs to subscriber " + owner.get()));
          }
          if (attempt == ATTEMPTS) throw e;
        }
      }
    });
  }
}
