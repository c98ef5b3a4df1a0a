package dev.tidings.journeys;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.campaign.Audience;
import dev.tidings.message.MessageId;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.queue.Message;
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
import org.jspecify.annotations.Nullable;
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
  private final Cache<RunKey, Long> runs =
      Caffeine.newBuilder().maximumSize(100_000).build();

  private record RunKey(long campaignId, String key) {}

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
    List<Plan> plans = new ArrayList<>(due.size());
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
      plans.add(plan(journey.get(), instance, now, known, zone, sent));
    }
    carryOut(plans, now);
    return BatchResult.ACK_ALL;
  }

  /** What one look does to one person: the emails it sends on the way, and where they end up. */
  private record Plan(Instance from, List<PlannedSend> sends, Ending ending) {
    Plan failed(String step) {
      return new Plan(from, sends, new Ending.Leave(step, STEP_FAILED));
    }
  }

  /** A send step passed: its keyed run (none when held out: recorded, not sent). */
  private record PlannedSend(
      Instance at, Step.Send step, @Nullable Long runId) {}

  private sealed interface Ending {
    /** The person stays inside, at {@code to}, looked at again at {@code due}. */
    record Stay(
        Instance to,
        Instant due,
        JourneyMetrics.Outcome outcome,
        ReaderLimits.@Nullable Limit limit)
        implements Ending {}

    /** The person leaves the journey at {@code step}. */
    record Leave(String step, String reason) implements Ending {}
  }

  private static final String STEP_FAILED = "STEP_FAILED";

  /** Decides how far one person goes now, without writing anything. */
  private Plan plan(
      Journey journey, Instance start, Instant now, KnownFacts facts, ZoneId zone, Sent sent) {
    Instance at = start;
    List<PlannedSend> sends = new ArrayList<>(1);
    for (int move = 0; move < MOVES_PER_LOOK; move++) {
      switch (Progress.next(journey, at, now, facts)) {
        case Decision.Sleep sleep -> {
          return new Plan(
              start,
              sends,
              new Ending.Stay(
                  sleep.instance(), sleep.until(), JourneyMetrics.Outcome.WAITING, null));
        }
        case Decision.Exit exit -> {
          return new Plan(
              start, sends, new Ending.Leave(exit.instance().at(), exit.reason().name()));
        }
        case Decision.Send send -> {
          Instance there = send.instance();
          Long run = null;
          if (!there.heldOut()) {
            List<Instant> times = sent.of(there.subscriberId());
            Optional<ReaderLimits.Limit> holding = limits.get().holding(times, zone, now);
            if (holding.isPresent())
              return new Plan(
                  start,
                  sends,
                  new Ending.Stay(
                      there,
                      limits.get().earliest(times, zone, now),
                      JourneyMetrics.Outcome.HELD_BACK,
                      holding.get()));
            Optional<Long> found = run(there, send.step());
            if (found.isEmpty()) {
              LOG.warn(
                  "journey {} step {}: campaign {} does not exist; the person leaves the journey",
                  there.journeyId(),
                  send.step().id(),
                  send.step().campaignId());
              return new Plan(start, sends, new Ending.Leave(there.at(), STEP_FAILED));
            }
            run = found.get();
            sent.add(there.subscriberId(), now);
          }
          sends.add(new PlannedSend(there, send.step(), run));
          Instance next = Progress.afterSending(send.step(), there, now);
          if (next == null)
            return new Plan(
                start, sends, new Ending.Leave(there.at(), Decision.Reason.COMPLETED.name()));
          at = next;
        }
      }
    }
    // a person still moving after as many moves is looked at again at once, by a new message
    return new Plan(start, sends, new Ending.Stay(at, now, JourneyMetrics.Outcome.WAITING, null));
  }

  /** The campaign run of a send step for an entry number, remembered once found. */
  private Optional<Long> run(Instance instance, Step.Send step) {
    String key = "journey:" + instance.journeyId() + ":" + step.id() + ":" + instance.entry();
    var cached = runs.getIfPresent(new RunKey(step.campaignId(), key));
    if (cached != null) return Optional.of(cached);
    Optional<Long> found = sender.runFor(step.campaignId(), key);
    found.ifPresent(run -> runs.put(new RunKey(step.campaignId(), key), run));
    return found;
  }

  /**
   * Records the batch's sends, sends them, then moves everyone to where their plan ends, each only
   * from where they were: a look repeated after a worker died decides the same, and sends through
   * the same keyed runs, which the ledger sends once.
   */
  private void carryOut(List<Plan> plans, Instant now) {
    List<PlannedSend> sends = new ArrayList<>();
    for (Plan plan : plans) sends.addAll(plan.sends());
    if (!sends.isEmpty())
      jdbi.useTransaction(handle -> {
        List<InstanceTable.StepRun> runs = new ArrayList<>();
        List<InstanceTable.SendRow> rows = new ArrayList<>();
        for (PlannedSend send : sends) {
          Instance at = send.at();
          if (send.runId() != null)
            runs.add(new InstanceTable.StepRun(
                at.journeyId(),
                send.step().id(),
                at.entry(),
                send.step().campaignId(),
                send.runId()));
          rows.add(new InstanceTable.SendRow(at, send.step(), send.runId()));
        }
        InstanceTable.rememberRuns(handle, runs);
        InstanceTable.recordSends(handle, rows, now);
      });
    List<Plan> carried = new ArrayList<>(plans.size());
    for (Plan plan : plans) carried.add(send(plan));
    List<InstanceTable.Move> moves = new ArrayList<>();
    List<InstanceTable.Exit> exits = new ArrayList<>();
    for (Plan plan : carried)
      switch (plan.ending()) {
        case Ending.Stay stay ->
          moves.add(new InstanceTable.Move(plan.from(), stay.to(), stay.due()));
        case Ending.Leave leave ->
          exits.add(new InstanceTable.Exit(plan.from(), leave.step(), leave.reason()));
      }
    var done = jdbi.inTransaction(handle ->
        new Moved(InstanceTable.moveAll(handle, moves), InstanceTable.exitAll(handle, exits, now)));
    List<Message> wakes = new ArrayList<>();
    for (Plan plan : carried) {
      Due.Key key = InstanceTable.key(plan.from());
      switch (plan.ending()) {
        case Ending.Stay stay -> {
          if (!done.moved().contains(key)) continue;
          metrics.step(stay.outcome());
          if (stay.limit() != null) metrics.heldBack(stay.limit());
          Due wake = new Due(key.journeyId(), key.subscriberId(), key.entry(), stay.due());
          wakes.add(Due.TOPIC.message(wake, 0).notBefore(stay.due()));
        }
        case Ending.Leave leave -> {
          if (done.exited().contains(key)) metrics.exited(leave.reason());
        }
      }
    }
    if (!wakes.isEmpty()) queue.publishAll(Due.TOPIC.name(), wakes);
  }

  private record Moved(Set<Due.Key> moved, Set<Due.Key> exited) {}

  /** Sends a plan's emails; a campaign that no longer sends takes the person out there. */
  private Plan send(Plan plan) {
    for (PlannedSend send : plan.sends()) {
      Long run = send.runId();
      if (run == null) {
        metrics.step(JourneyMetrics.Outcome.HELD_OUT);
        continue;
      }
      try {
        sender.send(send.step().campaignId(), run, send.at().subscriberId());
        metrics.step(JourneyMetrics.Outcome.SENT);
      } catch (IllegalStateException e) {
        LOG.warn(
            "journey {} step {}: {}; the person leaves the journey",
            send.at().journeyId(),
            send.step().id(),
            e.getMessage());
        metrics.step(JourneyMetrics.Outcome.FAILED);
        return plan.failed(send.at().at());
      }
    }
    return plan;
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
        if (named(fact.name(), name) && !fact.at().isBefore(since)) return true;
      return false;
    }

    /** An activity by its name; an open or click of any of the journey's emails by its prefix. */
    private static boolean named(String fact, String name) {
      return fact.equals(name) || (fact.startsWith(name + ":") && name.startsWith("email."));
    }
  }
}
