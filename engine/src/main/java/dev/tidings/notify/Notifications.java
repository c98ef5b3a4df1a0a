package dev.tidings.notify;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.events.EventInbox;
import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.EventOutbox;
import dev.tidings.events.catalog.ProductEvent;
import dev.tidings.events.notify.DigestSent;
import dev.tidings.message.MessageId;
import dev.tidings.storage.AdvisoryLock;
import dev.tidings.storage.DayPartitions;
import dev.tidings.storage.Expiry;
import dev.tidings.storage.StoredRowRepair;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;

/**
 * Content and the notifications it makes: publishing fans a piece out to its owners' followers and to
 * subscribers near its place, into their bucket for today; a digest reads a subscriber's last days and
 * a flush marks what it sent. Days are UTC days.
 */
public final class Notifications {
  /** A digest looks back at most this far; buckets are kept a little longer. */
  public static final int MAX_DAYS = 30;

  /**
   * Serialises publishes across nodes. A publish writes buckets in two fan-outs (followers, then people
   * nearby), each in subscriber order; two publishes interleaving them lock the same buckets in
   * opposite orders and deadlock, so each takes this for its transaction first.
   */
  private static final AdvisoryLock PUBLISH_LOCK = AdvisoryLock.PRODUCT_NEWS_PUBLISH;

  /** Who was told of a publish. */
  public record Published(Content content, long followers, long nearby) {}

  /** The catalogue's answer to "which of these products can no longer be bought". */
  @FunctionalInterface
  public interface ProductShelf {
    ProductShelf ALL_AVAILABLE = ids -> Set.of();

    Set<String> unavailableAmong(Collection<String> productIds);
  }

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final DayPartitions days;
  private final ProductShelf shelf;
  private final NotifyMetrics metrics;
  private final boolean backInStockNews;

  /**
   * @param shelf says which products are gone: news of a product is worth telling while it is sold
   * @param registry counts the fan-out and the digests
   */
  public Notifications(Jdbi jdbi, InstantSource clock, ProductShelf shelf, MeterRegistry registry) {
    this(jdbi, clock, shelf, registry, false);
  }

  /**
   * As above; {@code backInStockNews}: a product of a brand that comes back in stock is news to the
   * brand's followers again ({@code TIDINGS_BACK_IN_STOCK_NEWS}).
   */
  public Notifications(
      Jdbi jdbi,
      InstantSource clock,
      ProductShelf shelf,
      MeterRegistry registry,
      boolean backInStockNews) {
    this.backInStockNews = backInStockNews;
    this.metrics = new NotifyMetrics(registry);
    this.jdbi = jdbi;
    this.clock = clock;
    this.days =
        new DayPartitions(jdbi, "notification_buckets", AdvisoryLock.NOTIFICATION_PARTITIONS, "");
    this.shelf = shelf;
  }

  /**
   * Tells the followers of their brands of the products in {@code events} (see {@link ProductNews}),
   * each event once however often it is delivered; returns how many events were new to it.
   */
  int tellProductNews(String listener, List<ReceivedEvent> events) {
    LocalDate today = today();
    days.ensure(today);
    try {
      var told = jdbi.inTransaction(handle -> {
        handle
            .createQuery("SELECT count(pg_advisory_xact_lock(:lock))")
            .bind("lock", PUBLISH_LOCK.key())
            .mapTo(Long.class)
            .one();
        List<ReceivedEvent> fresh = EventInbox.unseen(handle, listener, events);
        List<ProductEvent> products = new ArrayList<>();
        for (ReceivedEvent received : fresh)
          if (received.event() instanceof ProductEvent product) products.add(product);
        var news = ProductNews.of(products);
        long notifications = news.isEmpty()
            ? 0
            : ProductNews.tell(handle, news, today, clock.instant(), backInStockNews);
        return new long[] {fresh.size(), notifications};
      });
      metrics.productNewsTold(told[1]);
      return (int) told[0];
    } catch (RuntimeException e) {
      if (DayPartitions.isMissing(e)) days.forget();
      throw e;
    }
  }

  /** What an import did: pieces stored (new and replaced), and who the published ones reached. */
  public record Imported(int created, int replaced, int published, long followers, long nearby) {}

  /**
   * Stores every piece in one transaction, then publishes those named in {@code publish} (each its own
   * fan-out, as {@link #publish} does): all are stored or none.
   */
  public Imported importAll(List<Content> pieces, Set<String> publish) {
    int created = jdbi.inTransaction(handle -> {
      int fresh = 0;
      for (Content piece : pieces) if (ContentTable.put(handle, piece, clock.instant())) fresh++;
      return fresh;
    });
    long followers = 0;
    long nearby = 0;
    int published = 0;
    for (Content piece : pieces) {
      if (!publish.contains(piece.id())) continue;
      var told = publish(piece.id()).orElseThrow();
      followers += told.followers();
      nearby += told.nearby();
      published++;
    }
    return new Imported(created, pieces.size() - created, published, followers, nearby);
  }

  /** Stores or replaces a piece of content (its published state stays as it was); true when new. */
  public boolean put(Content content) {
    return jdbi.withHandle(handle -> ContentTable.put(handle, content, clock.instant()));
  }

  /**
   * What clears the links an earlier version stored that today's rules refuse (run by {@code tidings
   * migrate}; see {@link ContentRepair}).
   */
  public StoredRowRepair storedRowRepair() {
    return new ContentRepair(jdbi);
  }

  public Optional<Content> get(String id) {
    return jdbi.withHandle(handle -> ContentTable.get(handle, id));
  }

  public List<Content> page(Optional<String> after, int limit) {
    return jdbi.withHandle(handle -> ContentTable.page(handle, after, limit));
  }

  public boolean delete(String id) {
    return jdbi.withHandle(handle -> ContentTable.delete(handle, id));
  }

  /**
   * Publishes the content and tells its owners' followers and the subscribers within its radius, in one
   * transaction; publishing it again the same day tells nobody twice.
   *
   * @return empty when there is no such content
   */
  public Optional<Published> publish(String id) {
    LocalDate today = today();
    days.ensure(today);
    try {
      Optional<Published> published = jdbi.inTransaction(handle -> {
        handle
            .createQuery("SELECT count(pg_advisory_xact_lock(:lock))")
            .bind("lock", PUBLISH_LOCK.key())
            .mapTo(Long.class)
            .one();
        return ContentTable.publish(handle, id, true, clock.instant())
            .map(content -> new Published(
                content,
                NotificationBuckets.toFollowers(handle, today, content),
                content
                    .location()
                    .map(at -> NotificationBuckets.toNearby(handle, today, content, at))
                    .orElse(0L)));
      });
      published.ifPresent(metrics::published);
      return published;
    } catch (RuntimeException e) {
      if (DayPartitions.isMissing(e)) days.forget();
      throw e;
    }
  }

  /** Unpublishes: digests stop telling of it at once (they check at read time). */
  public Optional<Content> unpublish(String id) {
    return jdbi.withHandle(handle -> ContentTable.publish(handle, id, false, clock.instant()));
  }

  /** What the subscriber has not been told of the last {@code lookBack} days (1..{@link #MAX_DAYS}). */
  public Digest digest(String subscriberId, int lookBack) {
    if (lookBack < 1 || lookBack > MAX_DAYS)
      throw new InvalidInputException(Problem.range(
          "since", "the digest looks back 1 to " + MAX_DAYS + " days, not " + lookBack));
    LocalDate today = today();
    return jdbi.withHandle(handle -> {
      var buckets =
          NotificationBuckets.of(handle, subscriberId, today.minusDays(lookBack - 1L), today);
      var sent = new HashSet<String>();
      for (var bucket : buckets)
        for (String event : bucket
            .events()
            .subList(0, Math.min(bucket.flushed(), bucket.events().size())))
          sent.add(contentOf(event));
      // the first day each untold piece arrived, and why
      var pending = new LinkedHashMap<String, Map.Entry<NotificationKind, LocalDate>>();
      var positions = new HashMap<LocalDate, Integer>();
      for (var bucket : buckets) {
        positions.put(bucket.day(), bucket.events().size());
        List<String> events = bucket.events();
        for (String event :
            events.subList(Math.min(bucket.flushed(), events.size()), events.size())) {
          String id = contentOf(event);
          if (!sent.contains(id)) pending.putIfAbsent(id, Map.entry(kindOf(event), bucket.day()));
        }
      }
      Map<String, Content> content = pending.isEmpty()
          ? Map.of()
          : ContentTable.all(handle, pending.keySet()).stream()
              .collect(Collectors.toMap(Content::id, Function.identity()));
      Set<String> soldOut = shelf.unavailableAmong(content.values().stream()
          .filter(piece -> piece.type() == ContentType.PRODUCT)
          .map(Content::id)
          .toList());
      var items = new ArrayList<Digest.Notification>();
      pending.forEach((id, why) -> {
        Content piece = content.get(id);
        if (piece != null && piece.applicableAt(clock.instant()) && !soldOut.contains(id))
          items.add(new Digest.Notification(why.getKey(), piece, why.getValue()));
      });
      items.sort(Comparator.comparing(Digest.Notification::day).reversed());
      return new Digest(subscriberId, items, positions);
    });
  }

  /** Marks what the digest was read from as sent; what arrived since stays for the next one. */
  public void flush(Digest digest) {
    jdbi.useHandle(
        handle -> NotificationBuckets.flush(handle, digest.subscriberId(), digest.positions()));
  }

  /**
   * Marks the digest sent as the email of a campaign's run ({@link #flush}) and records what it held, in
   * one transaction; sending the same run's digest again records nothing twice.
   */
  public void flushSent(Digest digest, long campaignId, long runId) {
    flushSent(DigestNote.of(digest), campaignId, runId);
    metrics.digestSent();
  }

  /**
   * What another capability keeps for the digest to be marked sent without it ({@link
   * #flushSentByLostWorker}): the send ledger writes it with the email's handover.
   */
  public String handoverNote(Digest digest) {
    return DigestNote.of(digest).text();
  }

  /**
   * Marks sent the digest of a {@link #handoverNote}, as {@link #flushSent} does: its email was handed
   * to the transport by a worker that stopped before it could flush. Doing it again, or after the
   * worker's own flush, changes nothing (a marker never moves back, the record is written once).
   */
  public void flushSentByLostWorker(String note, long campaignId, long runId) {
    flushSent(DigestNote.parse(note), campaignId, runId);
    metrics.digestRecovered();
  }

  private void flushSent(DigestNote note, long campaignId, long runId) {
    jdbi.useTransaction(handle -> {
      NotificationBuckets.flush(handle, note.subscriberId(), note.positions());
      Instant now = clock.instant();
      if (DigestsSent.record(
          handle, note.subscriberId(), note.contentIds(), campaignId, runId, now))
        EventOutbox.ON.append(
            handle,
            List.of(new DigestSent(
                note.subscriberId(), campaignId, note.contentIds().size(), now)));
    });
  }

  /** What a campaign's digests told: how many went out, the pieces told most, the latest ones. */
  /**
   * What the digest of one email (campaign {@code campaignId}'s run {@code runId} to the subscriber) told,
   * in its order; empty for an email that told nothing or was no digest.
   */
  public List<String> toldIn(long campaignId, long runId, String subscriberId) {
    return jdbi.withHandle(handle -> DigestsSent.told(handle, campaignId, runId, subscriberId));
  }

  /** What one email's digest told, in its order; empty for an email that told nothing. */
  public List<String> toldIn(MessageId email) {
    return toldIn(email.campaignId(), email.runId(), email.subscriberId());
  }

  public DigestsSent.Summary digestsSent(long campaignId, int latest) {
    return jdbi.withHandle(handle -> DigestsSent.summary(handle, campaignId, latest));
  }

  /** Makes the partition of a day before it is first written (for writers of earlier days). */
  public void ensureDay(LocalDate day) {
    days.ensure(day);
  }

  /**
   * Buckets past the retention, a day partition a step: a day's buckets expire together, dropped, not
   * deleted, once the day ended before the time asked.
   */
  public Expiry bucketExpiry() {
    return new Expiry() {
      @Override
      public String table() {
        return "notification_buckets";
      }

      @Override
      public Removed removeSome(Instant before, int batch) {
        OptionalLong dropped =
            days.dropOldestBefore(before.atZone(ZoneOffset.UTC).toLocalDate());
        return new Removed(dropped.orElse(0), dropped.isEmpty());
      }
    };
  }

  /** Drops the buckets of days before {@code firstKept}, a partition each. */
  public int dropDaysBefore(LocalDate firstKept) {
    return days.dropBefore(firstKept);
  }

  private LocalDate today() {
    return clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
  }

  private static String contentOf(String event) {
    return event.substring(event.indexOf(':') + 1);
  }

  private static NotificationKind kindOf(String event) {
    return NotificationKind.ofWire(event.substring(0, event.indexOf(':')))
        .orElse(NotificationKind.FOLLOWED);
  }
}
