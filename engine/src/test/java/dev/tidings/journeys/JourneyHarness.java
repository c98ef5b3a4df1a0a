package dev.tidings.journeys;

import dev.tidings.coordination.MutableClock;
import dev.tidings.events.DomainEvent;
import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Delivery;
import dev.tidings.queue.Message;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.Topic;
import dev.tidings.queue.WorkQueue;
import dev.tidings.storage.Database;
import dev.tidings.testing.ReceivedEvents;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Journeys at work on a real database with a clock the test moves: events go to the listener, the
 * people due are looked at when the test says, and what would be sent is recorded once per (campaign,
 * run, person) as the ledger does.
 */
final class JourneyHarness {
  static final long REMINDER = 1;
  static final long LAST_CALL = 2;

  final MutableClock clock = new MutableClock();
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final RecordingStepSender sender = new RecordingStepSender(Set.of(REMINDER, LAST_CALL));
  final Map<String, ZoneId> zones = new HashMap<>();
  final DueQueue queue = new DueQueue();
  final JourneyStore store;
  final ReaderLimitsStore limits;
  final JourneyRuntime runtime;
  final JourneyFigures figures;
  final Database database;

  JourneyHarness(Database database) {
    this.database = database;
    var jdbi = database.jdbi();
    this.store = new JourneyStore(jdbi, clock);
    this.limits = new ReaderLimitsStore(jdbi);
    People people = new People() {
      @Override
      public Map<String, ZoneId> zones(Collection<String> subscriberIds) {
        return zones;
      }

      @Override
      public boolean inSegment(dev.tidings.campaign.Audience segment, String subscriberId) {
        return false;
      }

      @Override
      public Instant bestHourAfter(String subscriberId, ZoneId zone, Instant after) {
        return after.plus(Duration.ofHours(3));
      }

      @Override
      public Map<String, List<SentEmail>> sentSince(
          Collection<String> subscriberIds, Instant since) {
        return Map.of();
      }
    };
    this.runtime = new JourneyRuntime(
        jdbi, store, limits, people, sender, this::lastBought, queue, metrics, clock, 1);
    this.figures = new JourneyFigures(jdbi, sender);
  }

  /** Each person's last purchase, as the activity would answer. */
  final Map<String, Instant> lastPurchase = new HashMap<>();

  private List<String> lastBought(
      String activity, Instant from, Instant to, Optional<String> after, int limit) {
    return lastPurchase.entrySet().stream()
        .filter(e -> !e.getValue().isBefore(from) && e.getValue().isBefore(to))
        .map(Map.Entry::getKey)
        .filter(id -> after.isEmpty() || id.compareTo(after.get()) > 0)
        .sorted()
        .limit(limit)
        .toList();
  }

  long activate(Journey journey) {
    long id = store.create(journey).id();
    store.changeState(id, Set.of(JourneyState.DRAFT), JourneyState.ACTIVE);
    runtime.refresh();
    return id;
  }

  void state(long id, JourneyState to) {
    store.changeState(id, Set.of(JourneyState.values()), to);
    runtime.refresh();
  }

  /** The events as the relay would hand them to the journeys' listener, then whoever is due now. */
  void hear(DomainEvent... events) {
    runtime.entries().apply(ReceivedEvents.of(events));
    step();
  }

  /** Moves the clock, looking at the people due on the way, in the order they come due. */
  void advance(Duration duration) {
    Instant end = clock.instant().plus(duration);
    while (true) {
      Optional<Instant> next = queue.nextDue();
      if (next.isEmpty() || next.get().isAfter(end)) break;
      if (next.get().isAfter(clock.instant()))
        clock.advance(Duration.between(clock.instant(), next.get()));
      step();
    }
    clock.advance(Duration.between(clock.instant(), end));
    step();
  }

  /** Looks at everyone due now, as many rounds as it takes. */
  void step() {
    for (int round = 0; round < 50; round++) {
      List<Topic.Received<Due>> due = queue.takeDue(clock.instant());
      if (due.isEmpty()) return;
      runtime.stepper().look(due);
    }
    throw new AssertionError("people still due after 50 rounds");
  }

  JourneyFigures.Figures figures(long id) {
    return figures.of(id, store.latest(id).orElseThrow().journey());
  }

  /** The people-due queue: messages kept with their not-before, handed out when the test says. */
  static final class DueQueue implements WorkQueue {
    private final List<Message> messages = new ArrayList<>();

    @Override
    public synchronized void publish(String queue, Message message) {
      if (!queue.equals(Due.TOPIC.name()))
        throw new IllegalArgumentException("journeys publish only to " + Due.TOPIC.name());
      messages.add(message);
    }

    @Override
    public void publishAll(String queue, List<Message> batch) {
      for (Message message : batch) publish(queue, message);
    }

    synchronized Optional<Instant> nextDue() {
      return messages.stream()
          .map(message -> message.notBefore() == null ? Instant.MIN : message.notBefore())
          .min(Instant::compareTo);
    }

    synchronized List<Topic.Received<Due>> takeDue(Instant now) {
      List<Topic.Received<Due>> due = new ArrayList<>();
      for (Iterator<Message> it = messages.iterator(); it.hasNext(); ) {
        Message message = it.next();
        if (message.notBefore() != null && message.notBefore().isAfter(now)) continue;
        it.remove();
        due.add(new Topic.Received<>(
            Due.TOPIC.codec().decode(message.body()),
            new Delivery(UUID.randomUUID().toString(), message.body(), 0, 1, Map.of())));
      }
      return due;
    }

    synchronized int size() {
      return messages.size();
    }

    @Override
    public void declare(QueueSpec spec) {}

    @Override
    public Subscription subscribe(
        String queue, int consumers, int prefetch, MessageHandler handler) {
      throw new UnsupportedOperationException("the test looks at the people due itself");
    }

    @Override
    public Subscription subscribeBatches(
        String queue, int consumers, int batchSize, BatchHandler handler) {
      throw new UnsupportedOperationException("the test looks at the people due itself");
    }

    @Override
    public synchronized long depth(String queue) {
      return messages.size();
    }

    @Override
    public OptionalLong delayed(String queue) {
      return OptionalLong.empty();
    }

    @Override
    public Optional<Duration> oldestAge(String queue) {
      return Optional.empty();
    }

    @Override
    public List<DeadLetter> deadLetters(String queue, int limit) {
      return List.of();
    }

    @Override
    public boolean requeueDeadLetter(String queue, String messageId) {
      return false;
    }

    @Override
    public boolean dropDeadLetter(String queue, String messageId) {
      return false;
    }

    @Override
    public void delete(String queue) {}

    @Override
    public void close() {}
  }
}
