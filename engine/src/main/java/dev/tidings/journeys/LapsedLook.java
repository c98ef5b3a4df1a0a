package dev.tidings.journeys;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Finds the people a win-back is for: those whose last purchase is {@code since} ago. Each look goes
 * on from where the last one reached (kept with the journey), so a node that was down for a day
 * finds that day's people at its next look, and nobody is found twice.
 */
final class LapsedLook {
  static final String PURCHASE = "purchase";
  private static final int PAGE = 1_000;

  /** How far back the first look of a newly active journey reaches. */
  static final Duration FIRST_LOOK = Duration.ofDays(1);

  private final Jdbi jdbi;
  private final LiveJourneys journeys;
  private final EntryListener entries;
  private final Lapses lapses;
  private final InstantSource clock;

  LapsedLook(
      Jdbi jdbi, LiveJourneys journeys, EntryListener entries, Lapses lapses, InstantSource clock) {
    this.jdbi = jdbi;
    this.journeys = journeys;
    this.entries = entries;
    this.lapses = lapses;
    this.clock = clock;
  }

  /** One look at every active win-back journey; answers how many people entered. */
  int look() {
    Instant now = clock.instant();
    int entered = 0;
    for (JourneyStore.Live journey : journeys.all()) {
      if (!journey.state().admits()
          || !(journey.latest().journey().trigger() instanceof Trigger.Lapsed lapsed)) continue;
      Instant to = now.minus(lapsed.since());
      Instant from = lookedUntil(journey.id()).orElse(to.minus(FIRST_LOOK));
      if (!from.isBefore(to)) continue;
      Optional<String> after = Optional.empty();
      while (true) {
        List<String> people = lapses.lastDoneWithin(PURCHASE, from, to, after, PAGE);
        if (people.isEmpty()) break;
        entered += entries.admit(journey, people, now);
        if (people.size() < PAGE) break;
        after = Optional.of(people.getLast());
      }
      lookedUntil(journey.id(), to);
    }
    return entered;
  }

  private Optional<Instant> lookedUntil(long journeyId) {
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT looked_until FROM journeys WHERE id = :id")
        .bind("id", journeyId)
        .map((rows, context) -> Optional.ofNullable(rows.getTimestamp(1)).map(Timestamp::toInstant))
        .findOne()
        .flatMap(found -> found));
  }

  private void lookedUntil(long journeyId, Instant to) {
    jdbi.useHandle(handle -> handle
        .createUpdate("UPDATE journeys SET looked_until = :to WHERE id = :id")
        .bind("to", Timestamp.from(to))
        .bind("id", journeyId)
        .execute());
  }
}
