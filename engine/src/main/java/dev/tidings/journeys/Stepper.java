package dev.tidings.journeys;

import dev.tidings.campaign.Audience;
import dev.tidings.message.MessageId;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the people who are due: decides what happens to each ({@link Progress}), then records it,
 * each move conditional on where the person was so a repeated look moves them once. A send goes
 * through the campaigns' ledger in a run of its own per step and entry number, so it is sent once
 * even when the look that sent it is repeated after a worker died.
 */
public final class Stepper implements ConsumerGroup {
  private static final Logger LOG = LoggerFactory.getLogger(Stepper.class);
  static final int BATCH = 100;

  /** A message that comes earlier than the person's due time is a stale one: they moved since. */
  private static final Duration EARLY = Duration.ofSeconds(1);

  /** The most moves one look makes for one person (a send then its next wait, a branch, ...). */
  private static final int MOVES_PER_LOOK = 8;

  private static final Duration WEEK = Duration.ofDays(7);

  private final Jdbi jdbi;
  private final LiveJourneys journeys;
  private final People people;
  private final StepSender sender;
  private final ReaderLimitsStore limits;
  private final WorkQueue queue;
  private final JourneyMetrics metrics;
  private final InstantSource clock;
  private final int consumers;

  Stepper(
      Jdbi jdbi,
      LiveJourneys journeys,
      People people,
      StepSender sender,
      ReaderLimitsStore limits,
      WorkQueue queue,
      JourneyMetrics metrics,
      InstantSource clock,
      int consumers) {
    this.jdbi = jdbi;
    this.journeys = journeys;
    this.people = people;
    this.sender = sender;
    this.limits = limits;
    this.queue = queue;
    this.metrics = metrics;
    this.clock = clock;
    this.consumers = consumers;
  }

  @Override
  public void register(Consumers registry) {
    registry.consumeBatches(Due.TOPIC, consumers, BATCH, this::look);
  }

  BatchResult look(List<Topic.Received<Due>> batch) {
    Instant now = clock.instant();
    Set<Due.Key> keys = new HashSet<>();
    for (Topic.Received<Due> received : batch) keys.add(received.value().key());
    Map<Due.Key, InstanceTable.Inside> inside =
        jdbi.withHandle(handle -> InstanceTable.inside(handle, keys));
    List<InstanceTable.Inside> due = new ArrayList<>();
    for (InstanceTable.Inside entry : inside.values()) {
      Optional<JourneyStore.Live> journey = journeys.of(entry.instance().journeyId());
      // a paused journey's people wait where they are; the sweeper queues them once it moves again
      if (journey.isEmpty() || !journey.get().state().moves()) continue;
      Instant at = entry.due();
      if (at != null && at.isAfter(now.plus(EARLY))) continue;
      if (at != null) metrics.late(Duration.between(at, now));
      due.add(entry);
    }
    if (due.isEmpty()) return BatchResult.ACK_ALL;
    Set<String> ids = new HashSet<>();
    for (InstanceTable.Inside entry : due) ids.add(entry.instance().subscriberId());
    Map<Due.Key, List<InstanceTable.Fact>> facts = jdbi.withHandle(handle -> InstanceTable.facts(
        handle, due.stream().map(e -> InstanceTable.key(e.instance())).toList()));
    Map<String, ZoneId> zones = people.zones(ids);
    Sent sent = new Sent(ids, now);
    for (InstanceTable.Inside entry : due) {
      Instance instance = entry.instance();
      ZoneId zone = zones.getOrDefault(instance.subscriberId(), ZoneOffset.UTC);
      var known = new KnownFacts(
          facts.getOrDefault(InstanceTable.key(instance), List.of()),
          zone,
          instance.subscriberId(),
          people);
      Optional<Journey> journey = journeys.version(instance.journeyId(), instance.version());
      if (journey.isEmpty()) continue;
      walk(journey.get(), instance, now, known, zone, sent);
    }
    return BatchResult.ACK_ALL;
  }

  /** Moves one person as far as they go now. */
  private void walk(
      Journey journey, Instance start, Instant now, KnownFacts facts, ZoneId zone, Sent sent) {
    Instance at = start;
    for (int move = 0; move < MOVES_PER_LOOK; move++) {
      Decision decision = Progress.next(journey, at, now, facts);
      switch (decision) {
        case Decision.Sleep sleep -> {
          if (moved(at, sleep.instance(), sleep.until())) {
            metrics.step(JourneyMetrics.Outcome.WAITING);
            wake(at, sleep.until());
          }
          return;
        }
        case Decision.Exit exit -> {
          exit(at, exit.instance().at(), exit.reason().name(), now);
          return;
        }
        case Decision.Send send -> {
          Instance there = send.instance();
          if (!there.heldOut()) {
            List<Instant> times = sent.of(there.subscriberId());
            Optional<ReaderLimits.Limit> holding = limits.get().holding(times, zone, now);
            if (holding.isPresent()) {
              Instant later = limits.get().earliest(times, zone, now);
              if (moved(at, there, later)) {
                metrics.heldBack(holding.get());
                metrics.step(JourneyMetrics.Outcome.HELD_BACK);
                wake(at, later);
              }
              return;
            }
          }
          if (!send(journey, there, send.step(), now)) {
            exit(at, there.at(), "STEP_FAILED", now);
            return;
          }
          if (!there.heldOut()) sent.add(there.subscriberId(), now);
          Instance next = Progress.afterSending(send.step(), there, now);
          if (next == null) {
            exit(at, there.at(), Decision.Reason.COMPLETED.name(), now);
            return;
          }
          if (!moved(at, next, now)) return;
          at = next;
        }
      }
    }
    // a person still moving after as many moves is looked at again at once, by a new message
    wake(at, now);
  }

  /** Records the step's send and sends it (held out: records it only); false when it cannot go. */
  private boolean send(Journey journey, Instance instance, Step.Send step, Instant now) {
    if (instance.heldOut()) {
      jdbi.useTransaction(handle -> InstanceTable.recordSend(handle, instance, step, null, now));
      metrics.step(JourneyMetrics.Outcome.HELD_OUT);
      return true;
    }
    String key = "journey:" + instance.journeyId() + ":" + step.id() + ":" + instance.entry();
    Optional<Long> run = sender.runFor(step.campaignId(), key);
    if (run.isEmpty()) {
      LOG.warn(
          "journey {} step {}: campaign {} does not exist; the person leaves the journey",
          instance.journeyId(),
          step.id(),
          step.campaignId());
      metrics.step(JourneyMetrics.Outcome.FAILED);
      return false;
    }
    jdbi.useTransaction(handle -> {
      InstanceTable.rememberRun(
          handle, instance.journeyId(), step.id(), instance.entry(), step.campaignId(), run.get());
      InstanceTable.recordSend(handle, instance, step, run.get(), now);
    });
    try {
      sender.send(step.campaignId(), run.get(), instance.subscriberId());
    } catch (IllegalStateException e) {
      LOG.warn(
          "journey {} step {}: {}; the person leaves the journey",
          instance.journeyId(),
          step.id(),
          e.getMessage());
      metrics.step(JourneyMetrics.Outcome.FAILED);
      return false;
    }
    metrics.step(JourneyMetrics.Outcome.SENT);
    return true;
  }

  private boolean moved(Instance from, Instance to, Instant due) {
    return jdbi.inTransaction(handle -> InstanceTable.move(handle, from, to, due));
  }

  private void exit(Instance from, String step, String reason, Instant now) {
    if (jdbi.inTransaction(handle -> InstanceTable.exit(handle, from, step, reason, now)))
      metrics.exited(reason);
  }

  private void wake(Instance instance, Instant at) {
    Due due = new Due(instance.journeyId(), instance.subscriberId(), instance.entry(), at);
    queue.publish(Due.TOPIC.name(), Due.TOPIC.message(due, 0).notBefore(at));
  }

  /** The emails sent to this batch's people in the last week: delivery's, and journeys' own. */
  private final class Sent {
    private final Map<String, Map<String, Instant>> byPerson = new HashMap<>();

    Sent(Set<String> ids, Instant now) {
      Instant since = now.minus(WEEK);
      people.sentSince(ids, since).forEach((id, emails) -> {
        var times = byPerson.computeIfAbsent(id, x -> new HashMap<>());
        for (People.SentEmail email : emails) times.put(email.messageId(), email.at());
      });
      // a journey email sent but not yet known to delivery counts once, under its message id
      for (InstanceTable.JourneySend send :
          jdbi.withHandle(handle -> InstanceTable.sendsSince(handle, ids, since)))
        byPerson
            .computeIfAbsent(send.subscriberId(), x -> new HashMap<>())
            .putIfAbsent(
                new MessageId(send.campaignId(), send.runId(), send.subscriberId()).text(),
                send.at());
    }

    List<Instant> of(String person) {
      return List.copyOf(byPerson.getOrDefault(person, Map.of()).values());
    }

    void add(String person, Instant at) {
      byPerson.computeIfAbsent(person, x -> new HashMap<>()).put("this-look:" + at, at);
    }
  }

  /** What is known of one person, for the decision about them. */
  private record KnownFacts(
      List<InstanceTable.Fact> facts, ZoneId zone, String subscriberId, People people)
      implements Facts {
    @Override
    public boolean did(String activity, Instant since) {
      return any(activity, since);
    }

    @Override
    public boolean opened(Instant since) {
      return any(InstanceTable.Fact.OPENED, since);
    }

    @Override
    public boolean clicked(Instant since) {
      return any(InstanceTable.Fact.CLICKED, since);
    }

    @Override
    public boolean inSegment(Audience segment) {
      return people.inSegment(segment, subscriberId);
    }

    @Override
    public Instant bestHourAfter(Instant after) {
      return people.bestHourAfter(subscriberId, zone, after);
    }

    private boolean any(String name, Instant since) {
      for (InstanceTable.Fact fact : facts)
        if (fact.name().equals(name) && !fact.at().isBefore(since)) return true;
      return false;
    }
  }
}
