package dev.tidings.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.InvalidInputException;
import dev.tidings.WebUrl;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.TargetType;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.ProductJson;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.storage.Database;
import dev.tidings.storage.StoredRows;
import dev.tidings.testing.OutboxDeliveries;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Currency;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.groups.Tuple;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What notifications must do on every PostgreSQL, embedded and real: a publish reaches every follower
 * of its owners and everyone within its radius once a day, and a digest tells each applicable piece
 * once, never after it was unpublished, whatever publishes and flushes race with it.
 */
@Timeout(180)
public abstract class NotificationsContract {
  private static final Instant MONDAY = Instant.parse("2026-11-23T09:00:00Z");
  private final AtomicReference<Instant> now = new AtomicReference<>(MONDAY);
  private final String run = UUID.randomUUID().toString().substring(0, 6);
  private Database database;
  private Notifications notifications;

  protected abstract Database openDatabase();

  private CatalogService catalog;

  @BeforeEach
  void open() {
    database = openDatabase();
    InstantSource clock = now::get;
    catalog = new CatalogService(database.jdbi(), clock);
    notifications = new Notifications(
        database.jdbi(), clock, catalog::unavailableAmong, new SimpleMeterRegistry());
  }

  @AfterEach
  void close() {
    database.close();
  }

  private String subscriber(String name, Double latitude, Double longitude) {
    String id = name + "-" + run;
    database
        .jdbi()
        .useHandle(handle -> handle
            .createUpdate("""
            INSERT INTO subscribers (id, email, latitude, longitude, created_at, updated_at)
            VALUES (:id, :email, :lat, :lon, now(), now())""")
            .bind("id", id)
            .bind("email", id + "@example.test")
            .bind("lat", latitude)
            .bind("lon", longitude)
            .execute());
    return id;
  }

  private String subscriber(String name) {
    return subscriber(name, null, null);
  }

  private void follow(String subscriber, TargetType type, String target) {
    database
        .jdbi()
        .useHandle(handle -> handle.execute(
            "INSERT INTO follows (subscriber_id, target_type, target_id, followed_at) VALUES (?, ?, ?, now())"
                + " ON CONFLICT DO NOTHING",
            subscriber,
            type.wire(),
            target));
  }

  private Content content(String id, FollowTarget... owners) {
    return new Content(
        id + "-" + run,
        ContentType.ARTWORK,
        "Piece " + id,
        Optional.empty(),
        Optional.empty(),
        List.of(owners),
        Optional.empty(),
        Content.DEFAULT_RADIUS_KM,
        Optional.empty(),
        Optional.empty(),
        false);
  }

  private static FollowTarget artist(String id) {
    return new FollowTarget(TargetType.ARTIST, id);
  }

  private List<String> told(String subscriber) {
    return notifications.digest(subscriber, 7).items().stream()
        .map(item -> item.content().id())
        .toList();
  }

  @Test
  void a_publish_reaches_each_follower_of_any_owner_once_and_again_the_same_day_nobody_twice() {
    String ann = subscriber("ann");
    String bob = subscriber("bob");
    String cat = subscriber("cat");
    follow(ann, TargetType.ARTIST, "warhol-" + run);
    follow(ann, TargetType.GALLERY, "pace-" + run);
    follow(bob, TargetType.GALLERY, "pace-" + run);
    var piece = content(
        "soup", artist("warhol-" + run), new FollowTarget(TargetType.GALLERY, "pace-" + run));
    notifications.put(piece);

    var published = notifications.publish(piece.id()).orElseThrow();
    assertThat(published.followers()).isEqualTo(2);
    notifications.publish(piece.id());

    assertThat(told(ann)).containsExactly(piece.id());
    assertThat(told(bob)).containsExactly(piece.id());
    assertThat(told(cat)).isEmpty();
    assertThat(notifications.publish("nothing-" + run)).isEmpty();
  }

  @Test
  void a_place_reaches_subscribers_within_its_radius_only() {
    String near = subscriber("near", 52.37, 4.89); // Amsterdam
    String close = subscriber("close", 52.09, 5.12); // Utrecht, 35 km
    String far = subscriber("far", 51.92, 4.48); // Rotterdam, 57 km
    var show = new Content(
        "show-" + run,
        ContentType.SHOW,
        "Opening",
        Optional.of("https://gallery.test/show"),
        Optional.empty(),
        List.of(),
        Optional.of(new GeoPoint(52.37, 4.90)),
        40,
        Optional.of(MONDAY),
        Optional.of(MONDAY.plus(Duration.ofDays(30))),
        false);
    notifications.put(show);

    assertThat(notifications.publish(show.id()).orElseThrow().nearby()).isEqualTo(2);

    assertThat(told(near)).containsExactly(show.id());
    assertThat(told(close)).containsExactly(show.id());
    assertThat(told(far)).isEmpty();
    var item = notifications.digest(near, 7).items().getFirst();
    assertThat(item.kind()).isEqualTo(NotificationKind.NEARBY);
    assertThat(item.content().title()).isEqualTo("Opening");
  }

  @Test
  void a_flush_marks_what_was_read_and_what_arrives_meanwhile_goes_to_the_next_digest() {
    String ann = subscriber("ann");
    follow(ann, TargetType.ARTIST, "a-" + run);
    var first = content("first", artist("a-" + run));
    var second = content("second", artist("a-" + run));
    notifications.put(first);
    notifications.put(second);
    notifications.publish(first.id());

    Digest digest = notifications.digest(ann, 7);
    notifications.publish(second.id()); // while the digest is being sent
    notifications.flush(digest);

    assertThat(digest.items()).extracting(i -> i.content().id()).containsExactly(first.id());
    assertThat(told(ann)).containsExactly(second.id());
    notifications.flush(notifications.digest(ann, 7));
    assertThat(told(ann)).isEmpty();
    now.set(MONDAY.plus(Duration.ofDays(1)));
    notifications.publish(first.id());
    assertThat(told(ann)).as("sent before, in the window: never again").isEmpty();
  }

  @Test
  void unpublished_or_ended_content_is_not_told_and_bad_windows_are_refused() {
    String ann = subscriber("ann");
    follow(ann, TargetType.ARTIST, "a-" + run);
    var gone = content("gone", artist("a-" + run));
    var over = new Content(
        "over-" + run,
        ContentType.EVENT,
        "Talk",
        Optional.empty(),
        Optional.empty(),
        List.of(artist("a-" + run)),
        Optional.empty(),
        Content.DEFAULT_RADIUS_KM,
        Optional.empty(),
        Optional.of(MONDAY.plus(Duration.ofHours(2))),
        false);
    notifications.put(gone);
    notifications.put(over);
    notifications.publish(gone.id());
    notifications.publish(over.id());
    assertThat(told(ann)).containsExactlyInAnyOrder(gone.id(), over.id());

    notifications.unpublish(gone.id());
    now.set(MONDAY.plus(Duration.ofHours(3)));

    assertThat(told(ann)).isEmpty();
    assertThatThrownBy(() -> notifications.digest(ann, 0))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> notifications.digest(ann, 31))
        .isInstanceOf(InvalidInputException.class);
  }

  @Test
  void days_past_retention_are_dropped_whole() {
    String ann = subscriber("ann");
    follow(ann, TargetType.ARTIST, "a-" + run);
    var piece = content("old", artist("a-" + run));
    notifications.put(piece);
    notifications.publish(piece.id());
    now.set(MONDAY.plus(Duration.ofDays(1)));
    assertThat(told(ann)).containsExactly(piece.id());

    assertThat(notifications.dropDaysBefore(now.get().atZone(ZoneOffset.UTC).toLocalDate()))
        .isGreaterThanOrEqualTo(1);

    assertThat(told(ann)).isEmpty();
    assertThat(partitionsOf(database.jdbi())).noneMatch(name -> name.endsWith("20261123"));
  }

  private Product product(String id, @Nullable String brand, boolean available) {
    return new Product(
        id + "-" + run,
        "Product " + id,
        Optional.ofNullable(brand),
        Optional.empty(),
        new BigDecimal("9.90"),
        Currency.getInstance("EUR"),
        WebUrl.of("https://img.shop.test/" + id + ".jpg"),
        WebUrl.of("https://shop.test/" + id),
        available,
        Map.of());
  }

  @Test
  void a_product_back_in_stock_is_news_again_only_with_back_in_stock_news() {
    String ann = subscriber("ann");
    follow(ann, TargetType.BRAND, "acme-" + run);
    InstantSource clock = now::get;
    var backInStockNews = new Notifications(
        database.jdbi(), clock, catalog::unavailableAmong, new SimpleMeterRegistry(), true);
    var boots = product("boots", "acme-" + run, true);
    var soldOut = product("boots", "acme-" + run, false);
    catalog.put(boots);
    assertThat(tellNews(notifications)).isEqualTo(1);
    long toldAsNew = bucketEvents(ann);
    assertThat(toldAsNew).isEqualTo(1);

    // a bucket holds an event once a day: the comebacks happen on later days
    now.set(MONDAY.plus(Duration.ofDays(1)));
    catalog.put(soldOut);
    catalog.put(boots);
    assertThat(tellNews(notifications)).as("claimed and dropped").isEqualTo(1);
    assertThat(bucketEvents(ann)).isEqualTo(toldAsNew);

    now.set(MONDAY.plus(Duration.ofDays(2)));
    catalog.put(soldOut);
    catalog.put(boots);
    assertThat(tellNews(backInStockNews)).isEqualTo(1);
    assertThat(bucketEvents(ann)).as("told again").isEqualTo(toldAsNew + 1);
  }

  /** Hands the catalogue's waiting events to the notifications' listener, as a node's relay would. */
  private int tellNews(Notifications to) {
    return OutboxDeliveries.deliver(database.jdbi(), new ProductNewsListener(to));
  }

  /** Every event in the subscriber's buckets, repeats included. */
  private long bucketEvents(String subscriber) {
    return database
        .jdbi()
        .withHandle(handle -> handle
            .createQuery("SELECT coalesce(sum(cardinality(events)), 0) FROM notification_buckets"
                + " WHERE subscriber_id = :id")
            .bind("id", subscriber)
            .mapTo(Long.class)
            .one());
  }

  @Test
  void a_new_product_of_a_brand_is_told_to_its_followers_once_while_it_is_for_sale() {
    String ann = subscriber("ann");
    String bob = subscriber("bob");
    follow(ann, TargetType.BRAND, "acme-" + run);
    follow(bob, TargetType.BRAND, "other-" + run);
    var boots = product("boots", "acme-" + run, true);
    var socks = product("socks", "acme-" + run, true);
    catalog.put(boots);
    assertThat(catalog.create(socks)).isPresent();
    catalog.put(product("hidden", "acme-" + run, false));
    catalog.put(product("plain", null, true));
    catalog.put(boots); // a replace is not news

    assertThat(tellNews(notifications))
        .as("new and available (the one of no brand is told to nobody)")
        .isEqualTo(3);
    assertThat(tellNews(notifications)).isZero();

    var digest = notifications.digest(ann, 7);
    assertThat(digest.items())
        .extracting(item -> item.content().id())
        .containsExactlyInAnyOrder(boots.id(), socks.id());
    var told = digest.items().stream()
        .filter(item -> item.content().id().equals(boots.id()))
        .findFirst()
        .orElseThrow()
        .content();
    assertThat(told.type()).isEqualTo(ContentType.PRODUCT);
    assertThat(told.title()).isEqualTo("Product boots");
    assertThat(told.url()).contains("https://shop.test/boots");
    assertThat(told.imageUrl()).contains("https://img.shop.test/boots.jpg");
    assertThat(told.owners()).containsExactly(new FollowTarget(TargetType.BRAND, "acme-" + run));
    assertThat(told(bob)).isEmpty();

    catalog.put(new Product(
        socks.id(),
        socks.title(),
        socks.brand(),
        socks.category(),
        socks.price(),
        socks.currency(),
        socks.imageUrl().orElseThrow(),
        socks.landingUrl().orElseThrow(),
        false,
        socks.attributes()));
    assertThat(told(ann)).as("sold out: no longer worth telling").containsExactly(boots.id());
  }

  @Test
  void a_bulk_import_of_a_brand_is_told_in_one_pass_and_rounds_on_four_threads_tell_each_once()
      throws Exception {
    List<String> fans = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      fans.add(subscriber("fan" + i));
      follow(fans.get(i), TargetType.BRAND, (i % 2 == 0 ? "even-" : "odd-") + run);
    }
    var lines = new StringBuilder();
    for (int i = 0; i < 300; i++)
      lines
          .append(
              ProductJson.toJson(product("bulk" + i, (i % 2 == 0 ? "even-" : "odd-") + run, true)))
          .append('\n');
    var report = catalog.importStream(
        new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8)),
        Format.JSON_LINES,
        ImportOptions.defaults());
    assertThat(report.imported()).isEqualTo(300);

    // delivered at least once: four consumers each take every batch of 20, and each is told once
    var events =
        OutboxDeliveries.take(database.jdbi(), new ProductNewsListener(notifications).types());
    assertThat(events).hasSize(300);
    var told = new AtomicInteger();
    try (var pool = Executors.newFixedThreadPool(4)) {
      List<Future<?>> rounds = new ArrayList<>();
      for (int t = 0; t < 4; t++)
        rounds.add(pool.submit(() -> {
          for (int from = 0; from < events.size(); from += 20)
            told.addAndGet(notifications.tellProductNews(
                ProductNewsListener.NAME,
                events.subList(from, Math.min(events.size(), from + 20))));
        }));
      for (var round : rounds) round.get();
    }

    assertThat(told.get()).isEqualTo(300);
    for (int i = 0; i < fans.size(); i++) {
      var digest = notifications.digest(fans.get(i), 7).items();
      assertThat(digest).hasSize(150);
      assertThat(digest.stream().map(item -> item.content().id()).distinct()).hasSize(150);
      String brand = (i % 2 == 0 ? "even-" : "odd-") + run;
      assertThat(digest)
          .allSatisfy(item -> assertThat(item.content().owners())
              .containsExactly(new FollowTarget(TargetType.BRAND, brand)));
    }
  }

  @Test
  void a_digest_flushed_as_sent_is_recorded_with_what_it_held() {
    String ann = subscriber("ann");
    String bob = subscriber("bob");
    follow(ann, TargetType.ARTIST, "a-" + run);
    follow(bob, TargetType.ARTIST, "a-" + run);
    var first = content("first", artist("a-" + run));
    var second = content("second", artist("a-" + run));
    notifications.put(first);
    notifications.put(second);
    notifications.publish(first.id());
    notifications.publish(second.id());

    notifications.flushSent(notifications.digest(ann, 7), 41, 7);
    var bobs = notifications.digest(bob, 7);
    notifications.flushSent(bobs, 41, 7);
    notifications.flushSent(bobs, 41, 7); // a repeated flush records nothing twice

    assertThat(told(ann)).isEmpty();
    assertThat(told(bob)).isEmpty();
    var summary = notifications.digestsSent(41, 10);
    assertThat(summary.digests()).isEqualTo(2);
    assertThat(summary.pieces()).isEqualTo(4);
    assertThat(summary.mostTold())
        .extracting(DigestsSent.Told::contentId, DigestsSent.Told::title, DigestsSent.Told::digests)
        .containsExactly(
            Tuple.tuple(first.id(), "Piece first", 2L),
            Tuple.tuple(second.id(), "Piece second", 2L));
    assertThat(summary.latest())
        .extracting(DigestsSent.Sent::subscriberId)
        .containsExactlyInAnyOrder(ann, bob);
    assertThat(notifications.digestsSent(42, 10).digests()).isZero();
  }

  @Test
  void a_digest_marked_from_its_handover_note_is_told_once_whoever_marks_it() {
    String ann = subscriber("ann");
    follow(ann, TargetType.ARTIST, "a-" + run);
    var first = content("first", artist("a-" + run));
    var second = content("second", artist("a-" + run));
    notifications.put(first);
    notifications.put(second);
    notifications.publish(first.id());

    Digest digest = notifications.digest(ann, 7);
    String note = notifications.handoverNote(digest);
    notifications.publish(second.id()); // arrives after the digest was read
    // its worker stopped after the send:
    // the worker that settles the recipient marks it from the note
    notifications.flushSentByLostWorker(note, 43, 1);
    assertThat(told(ann)).containsExactly(second.id());
    // the lost worker had flushed after all, or the note is replayed: nothing changes
    notifications.flushSent(digest, 43, 1);
    notifications.flushSentByLostWorker(note, 43, 1);
    assertThat(told(ann)).containsExactly(second.id());
    var summary = notifications.digestsSent(43, 10);
    assertThat(summary.digests()).isEqualTo(1);
    assertThat(summary.latest().getFirst().contentIds()).containsExactly(first.id());
    assertThatThrownBy(() -> notifications.flushSentByLostWorker("{\"positions\": 3}", 43, 2))
        .isInstanceOf(InvalidInputException.class);
  }

  private static List<String> partitionsOf(Jdbi jdbi) {
    return jdbi.withHandle(handle -> handle.createQuery("""
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'notification_buckets'::regclass""").mapTo(String.class).list());
  }

  /**
   * Random follows and content; publishes, unpublishes and digests with flushes race on four threads
   * over three days. Afterwards every piece that stayed published was told to each of its followers
   * exactly once, none was told twice, and none was told after its unpublish returned.
   */
  @Test
  void racing_publishes_unpublishes_and_flushes_tell_each_applicable_piece_exactly_once()
      throws Exception {
    var random = new Random(11);
    List<String> subscribers = new ArrayList<>();
    for (int i = 0; i < 30; i++) subscribers.add(subscriber("s" + i));
    List<String> artists = List.of("x-" + run, "y-" + run, "z-" + run, "w-" + run);
    Map<String, Set<String>> follows = new HashMap<>();
    for (String s : subscribers)
      for (String a : artists)
        if (random.nextInt(3) == 0) {
          follow(s, TargetType.ARTIST, a);
          follows.computeIfAbsent(s, x -> new HashSet<>()).add(a);
        }
    List<Content> pieces = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      var piece = content("p" + i, artist(artists.get(random.nextInt(artists.size()))));
      notifications.put(piece);
      pieces.add(piece);
    }
    Set<String> published = ConcurrentHashMap.newKeySet();
    Set<String> unpublished = ConcurrentHashMap.newKeySet();
    Map<String, Long> unpublishedAt = new ConcurrentHashMap<>();
    Map<String, List<String>> toldTo = new ConcurrentHashMap<>();
    Map<String, Object> locks = new ConcurrentHashMap<>();
    var order = new ArrayList<>(pieces);
    Collections.shuffle(order, random);

    try (var threads = Executors.newFixedThreadPool(4)) {
      var work = new ArrayList<Future<?>>();
      for (int t = 0; t < 2; t++) {
        int half = t;
        work.add(threads.submit(() -> {
          for (int i = half; i < order.size(); i += 2) {
            notifications.publish(order.get(i).id());
            published.add(order.get(i).id());
            if (i == order.size() / 2) now.set(MONDAY.plus(Duration.ofDays(1)));
          }
        }));
      }
      work.add(threads.submit(() -> {
        for (int i = 0; i < order.size(); i += 7) {
          String id = order.get(i).id();
          while (!published.contains(id)) Thread.sleep(1); // unpublish what is out, not before
          notifications.unpublish(id);
          unpublished.add(id);
          unpublishedAt.put(id, System.nanoTime());
        }
        return null;
      }));
      work.add(threads.submit(() -> {
        var mine = new Random(5);
        for (int round = 0; round < 150; round++) {
          String s = subscribers.get(mine.nextInt(subscribers.size()));
          synchronized (locks.computeIfAbsent(s, x -> new Object())) {
            long readAt = System.nanoTime();
            Digest digest = notifications.digest(s, 7);
            for (var item : digest.items()) {
              Long gone = unpublishedAt.get(item.content().id());
              assertThat(gone == null || gone > readAt)
                  .as("%s told after its unpublish", item.content().id())
                  .isTrue();
              toldTo
                  .computeIfAbsent(s, x -> new ArrayList<>())
                  .add(item.content().id());
            }
            notifications.flush(digest);
          }
        }
      }));
      for (Future<?> future : work) future.get();
    }
    now.set(MONDAY.plus(Duration.ofDays(2)));
    for (String s : subscribers) {
      Digest last = notifications.digest(s, 7);
      last.items()
          .forEach(item -> toldTo
              .computeIfAbsent(s, x -> new ArrayList<>())
              .add(item.content().id()));
      notifications.flush(last);
    }

    int checked = 0;
    for (String s : subscribers) {
      List<String> told = toldTo.getOrDefault(s, List.of());
      assertThat(told).as("told to %s", s).doesNotHaveDuplicates();
      for (Content piece : pieces) {
        boolean follows_ =
            follows.getOrDefault(s, Set.of()).contains(piece.owners().getFirst().id());
        if (!follows_) assertThat(told).doesNotContain(piece.id());
        else if (!unpublished.contains(piece.id())) {
          assertThat(told).as("%s to %s", piece.id(), s).contains(piece.id());
          checked++;
        }
      }
    }
    assertThat(checked).as("pairs checked").isGreaterThan(100);
  }

  @Test
  void content_an_earlier_version_stored_with_a_link_today_refuses_is_read_without_it() {
    // as an earlier version stored it (a product's news copied its landing URL): past today's rules
    database.jdbi().useHandle(handle -> handle.execute("""
        INSERT INTO content (id, type, title, url, image_url, owners, published, created_at,
                             updated_at)
        VALUES ('old-news', 'product', 'Old news', 'http://[1.2.3]/x', 'https://img.shop.test/o.jpg',
                '[{"type":"brand","id":"acme"}]', true, now(), now())"""));

    Content old = notifications.get("old-news").orElseThrow();

    assertThat(old.url()).isEmpty();
    assertThat(old.imageUrl()).contains("https://img.shop.test/o.jpg");
    assertThat(StoredRows.of(database.jdbi()).counted("content", "url")).isPositive();

    var repair = notifications.storedRowRepair();
    assertThat(repair.repairSome(Optional.empty(), 100).repaired())
        .containsExactly(Map.entry("url", 1L));
    assertThat(notifications.get("old-news")).contains(old);
    assertThat(repair.repairSome(Optional.empty(), 100).repaired()).isEmpty();
  }
}
