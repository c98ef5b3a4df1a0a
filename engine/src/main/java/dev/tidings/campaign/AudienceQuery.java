package dev.tidings.campaign;

import dev.tidings.activity.ActivitySql;
import dev.tidings.activity.EventType;
import dev.tidings.audience.SubscriberSql;
import dev.tidings.opentime.ShownSql;
import dev.tidings.optimize.ExperimentSql;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/**
 * The subscriber ids of an audience, in id order, read in keyset pages of {@link #PAGE} ids: each page
 * is one short query, so no connection or cursor is held between pages and the audience is never in
 * memory as a whole. Only subscribers with consent {@code subscribed} whose address is not suppressed
 * are in any audience.
 *
 * <p>A segment is one SQL statement: each condition becomes a predicate on the subscriber row (bound
 * parameters only, never spliced text), all joined by AND, so PostgreSQL plans the whole segment at once:
 * <ul>
 *   <li>field: {@code subscribers.country/city/time_zone}, case-insensitive;
 *   <li>locale: {@code subscribers.locale}, the whole tag or its language;
 *   <li>near: {@code subscribers.latitude/longitude}, haversine distance on a 6,371 km sphere;
 *   <li>follows: a row in {@code follows};
 *   <li>opened / notOpened campaign X: a row in {@code message_slots} for (subscriber, X) (written when
 *       the email's images were first shown) or an {@code activity_events} row of type {@code open} whose
 *       item is X;
 *   <li>clicked within N days: an {@code activity_events} row of type {@code email_click} since then;
 *   <li>opened within N days: as opened, for an email of any campaign, a {@code message_slots} row
 *       chosen or an {@code open} event since then.
 * </ul>
 */
public final class AudienceQuery {
  public static final int PAGE = 1000;

  private final Jdbi jdbi;
  private final InstantSource clock;

  public AudienceQuery(Jdbi jdbi, InstantSource clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /** Lazily pages through the audience; the time of "within N days" is fixed when this is called. */
  public Iterator<String> ids(Audience audience) {
    Sql sql = sql(audience, clock.instant());
    return new Pages<>(after -> page(sql, after, PAGE), id -> id);
  }

  /** A member of an audience with their time zone, for planning when their email goes. */
  public record Member(String id, ZoneId timeZone) {}

  /** As {@link #ids}, each with their time zone (UTC when the stored one is no longer known). */
  public Iterator<Member> members(Audience audience) {
    Sql sql = sql(audience, clock.instant());
    return new Pages<>(after -> membersPage(sql, after, PAGE), Member::id);
  }

  List<Member> membersPage(Sql sql, Optional<String> after, int limit) {
    return jdbi.withHandle(handle -> {
      var query = handle.createQuery("SELECT s.id, s.time_zone FROM " + SubscriberSql.SUBSCRIBERS
          + " WHERE " + sql.where()
          + " AND (:after::text IS NULL OR s.id > :after) ORDER BY s.id LIMIT :limit");
      sql.binds().forEach(query::bind);
      return query
          .bind("after", after.orElse(null))
          .bind("limit", limit)
          .map((rows, context) -> new Member(rows.getString(1), zone(rows.getString(2))))
          .list();
    });
  }

  private static ZoneId zone(String id) {
    try {
      return ZoneId.of(id);
    } catch (DateTimeException e) {
      return ZoneOffset.UTC;
    }
  }

  /** Counts the audience now (one query; for previews and the CLI). */
  public long count(Audience audience) {
    Sql sql = sql(audience, clock.instant());
    return jdbi.withHandle(handle -> {
      var query = handle.createQuery(
          "SELECT count(*) FROM " + SubscriberSql.SUBSCRIBERS + " WHERE " + sql.where());
      sql.binds().forEach(query::bind);
      return query.mapTo(Long.class).one();
    });
  }

  /** Whether a subscriber with this id exists, whatever their consent. */
  public boolean exists(String subscriberId) {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT EXISTS (SELECT 1 FROM " + SubscriberSql.SUBSCRIBERS + " WHERE s.id = :id)")
        .bind("id", subscriberId)
        .mapTo(Boolean.class)
        .one());
  }

  /**
   * Whether the audience holds this one subscriber now: the same predicates as {@link #ids}, consent and
   * suppressions included, asked of one row (a preview's "would this subscriber be sent to?").
   */
  public boolean includes(Audience audience, String subscriberId) {
    Sql sql = sql(audience, clock.instant());
    return jdbi.withHandle(handle -> {
      var query = handle.createQuery("SELECT EXISTS (SELECT 1 FROM " + SubscriberSql.SUBSCRIBERS
          + " WHERE s.id = :subject AND " + sql.where() + ")");
      sql.binds().forEach(query::bind);
      return query.bind("subject", subscriberId).mapTo(Boolean.class).one();
    });
  }

  List<String> page(Sql sql, Optional<String> after, int limit) {
    return jdbi.withHandle(handle -> {
      var query = handle.createQuery("SELECT s.id FROM " + SubscriberSql.SUBSCRIBERS + " WHERE "
          + sql.where()
          + " AND (:after::text IS NULL OR s.id > :after) ORDER BY s.id LIMIT :limit");
      sql.binds().forEach(query::bind);
      return query
          .bind("after", after.orElse(null))
          .bind("limit", limit)
          .mapTo(String.class)
          .list();
    });
  }

  record Sql(String where, Map<String, Object> binds) {}

  static Sql sql(Audience audience, Instant now) {
    List<String> predicates = new ArrayList<>();
    predicates.add(SubscriberSql.reachable());
    Map<String, Object> binds = new TreeMap<>();
    if (audience instanceof Audience.Segment segment) {
      int n = 0;
      for (Condition condition : segment.conditions()) {
        String p = "c" + n++ + "_";
        predicates.add(predicate(condition, p, binds, now));
      }
    }
    return new Sql(String.join(" AND ", predicates), binds);
  }

  private static String predicate(
      Condition condition, String p, Map<String, Object> binds, Instant now) {
    return switch (condition) {
      case Condition.FieldIn in -> {
        binds.put(
            p + "values",
            in.values().stream().map(v -> v.toLowerCase(Locale.ROOT)).toArray(String[]::new));
        yield SubscriberSql.fieldIn(in.field().column(), p);
      }
      case Condition.LocaleIn in -> {
        binds.put(p + "locales", in.locales().toArray(String[]::new));
        yield SubscriberSql.localeIn(p);
      }
      case Condition.Near near -> {
        binds.put(p + "lat", near.latitude());
        binds.put(p + "lon", near.longitude());
        binds.put(p + "km", near.radiusKm());
        yield SubscriberSql.near(p);
      }
      case Condition.Follows follows -> {
        binds.put(p + "type", follows.targetType().wire());
        binds.put(p + "id", follows.targetId());
        yield SubscriberSql.follows(p);
      }
      case Condition.OpenedCampaign opened -> {
        binds.put(p + "campaign", opened.campaignId());
        binds.put(p + "item", Long.toString(opened.campaignId()));
        String exists = "(" + ShownSql.shownCampaign(p) + " OR "
            + ActivitySql.didOnItem(EventType.OPEN, p) + ")";
        yield opened.opened() ? exists : "NOT " + exists;
      }
      case Condition.InExperiment tested -> {
        binds.put(p + "campaign", tested.campaignId());
        String exists = ExperimentSql.sentInExperiment(p);
        yield tested.in() ? exists : "NOT " + exists;
      }
      case Condition.ClickedWithin clicked -> {
        binds.put(p + "since", now.minus(Duration.ofDays(clicked.days())));
        yield ActivitySql.didSince(EventType.EMAIL_CLICK, p);
      }
      case Condition.OpenedWithin opened -> {
        binds.put(p + "since", now.minus(Duration.ofDays(opened.days())));
        yield "(" + ShownSql.shownSince(p) + " OR " + ActivitySql.didSince(EventType.OPEN, p) + ")";
      }
    };
  }

  /** Fetches the next page when the current one is used up; stops at the first short page. */
  private static final class Pages<T> implements Iterator<T> {
    private final Function<Optional<String>, List<T>> fetch;
    private final Function<T, String> key;
    private List<T> page = List.of();
    private int position;
    private Optional<String> after = Optional.empty();
    private boolean last;

    Pages(Function<Optional<String>, List<T>> fetch, Function<T, String> key) {
      this.fetch = fetch;
      this.key = key;
    }

    @Override
    public boolean hasNext() {
      if (position < page.size()) return true;
      if (last) return false;
      page = fetch.apply(after);
      position = 0;
      last = page.size() < PAGE;
      if (!page.isEmpty()) after = Optional.of(key.apply(page.getLast()));
      return !page.isEmpty();
    }

    @Override
    public T next() {
      if (!hasNext()) throw new NoSuchElementException();
      return page.get(position++);
    }
  }
}
