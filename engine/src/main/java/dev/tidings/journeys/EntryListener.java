package dev.tidings.journeys;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventInbox;
import dev.tidings.events.EventListener;
import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.events.audience.Erased;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.events.catalog.BackInStock;
import dev.tidings.events.catalog.PriceDropped;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Opened;
import dev.tidings.message.MessageId;
import dev.tidings.queue.WorkQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Hears the typed events that journeys answer: lets the people a trigger names into the active
 * journeys their entry rules allow, records what entrants did that their journey asks about (waking
 * one whose goal is done, so it takes them out at once), and forgets a person who is erased. All of
 * a batch is applied in one transaction with its inbox marks, so a redelivered event changes nothing;
 * the people to look at are queued after it commits (the sweeper finds any whose message was lost).
 */
public final class EntryListener implements EventListener {
  public static final String NAME = "journeys";

  /** How long after entering a conversion is counted for the journey (and for its hold-out). */
  public static final Duration ATTRIBUTION = Duration.ofDays(7);

  /** How far back an event's own time is believed for when a person entered. */
  private static final Duration LATEST_BELIEVED = Duration.ofDays(1);

  private static final String VIEW = "view";
  private static final String CART = "add_to_cart";

  private final Jdbi jdbi;
  private final LiveJourneys journeys;
  private final People people;
  private final WorkQueue queue;
  private final JourneyMetrics metrics;
  private final InstantSource clock;

  EntryListener(
      Jdbi jdbi,
      LiveJourneys journeys,
      People people,
      WorkQueue queue,
      JourneyMetrics metrics,
      InstantSource clock) {
    this.jdbi = jdbi;
    this.journeys = journeys;
    this.people = people;
    this.queue = queue;
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<CloudEventType> types() {
    return Set.of(
        CloudEventType.SUBSCRIBED,
        CloudEventType.ACTIVITY_ACCEPTED,
        CloudEventType.OPENED,
        CloudEventType.CLICKED,
        CloudEventType.BACK_IN_STOCK,
        CloudEventType.PRICE_DROPPED,
        CloudEventType.ERASED);
  }

  @Override
  public void apply(List<ReceivedEvent> events) {
    List<JourneyStore.Live> live = journeys.all();
    Instant now = clock.instant();
    List<Due> wake = new ArrayList<>();
    List<Trigger> entered = new ArrayList<>();
    jdbi.useTransaction(handle -> {
      var batch = new Batch(handle, live, now, wake, entered);
      for (ReceivedEvent received : EventInbox.unseen(handle, NAME, events)) {
        switch (received.event()) {
          case ActivityAccepted activity -> batch.activity(activity);
          case Subscribed subscribed ->
            batch.enterAll(
                subscribed.subscriberId(),
                subscribed.time(),
                List.of(),
                trigger -> trigger instanceof Trigger.SignedUp);
          case Opened opened ->
            batch.email(
                opened.messageId(),
                opened.subscriberId(),
                opened.time(),
                InstanceTable.Fact.OPENED,
                Trigger.EmailStep.OPENED);
          case Clicked clicked ->
            batch.email(
                clicked.messageId(),
                clicked.subscriberId(),
                clicked.time(),
                InstanceTable.Fact.CLICKED,
                Trigger.EmailStep.CLICKED);
          case BackInStock back ->
            batch.news(back.productId(), back.time(), Trigger.News.BACK_IN_STOCK);
          case PriceDropped dropped ->
            batch.news(dropped.productId(), dropped.time(), Trigger.News.PRICE_DROPPED);
          case Erased erased -> InstanceTable.erase(handle, erased.subscriberId());
          default -> {}
        }
      }
    });
    entered.forEach(metrics::entered);
    for (Due due : wake)
      queue.publish(Due.TOPIC.name(), Due.TOPIC.message(due, 0).notBefore(due.at()));
  }

  /**
   * Lets these people into the journey as of {@code at}, by its entry rules: a look found them (their
   * last purchase long ago), not an event. Answers how many entered.
   */
  int admit(JourneyStore.Live journey, List<String> people, Instant at) {
    Instant now = clock.instant();
    List<Due> wake = new ArrayList<>();
    List<Trigger> entered = new ArrayList<>();
    jdbi.useTransaction(handle -> {
      var batch = new Batch(handle, List.of(journey), now, wake, entered);
      for (String person : people) batch.enter(journey, person, at, List.of());
    });
    entered.forEach(metrics::entered);
    for (Due due : wake)
      queue.publish(Due.TOPIC.name(), Due.TOPIC.message(due, 0).notBefore(due.at()));
    return entered.size();
  }

  /** One transaction's work: the live journeys, and what is to be queued once it commits. */
  private final class Batch {
    private final Handle handle;
    private final List<JourneyStore.Live> live;
    private final Instant now;
    private final List<Due> wake;
    private final List<Trigger> entered;

    Batch(
        Handle handle,
        List<JourneyStore.Live> live,
        Instant now,
        List<Due> wake,
        List<Trigger> entered) {
      this.handle = handle;
      this.live = live;
      this.now = now;
      this.wake = wake;
      this.entered = entered;
    }

    void activity(ActivityAccepted activity) {
      String person = activity.subscriberId();
      Instant at = believed(activity.time());
      if (signalled(activity.activity()))
        InstanceTable.recordSignal(handle, person, activity.activity(), activity.itemId(), at);
      Set<Long> asking = new HashSet<>();
      Set<Long> goals = new HashSet<>();
      for (JourneyStore.Live journey : live) {
        Journey version = journey.latest().journey();
        if (version.activitiesAsked().contains(activity.activity())) asking.add(journey.id());
        if (activity.activity().equals(version.goal()) && journey.state().moves())
          goals.add(journey.id());
      }
      // facts first: a person the same event lets in did it at their entry, not since it
      InstanceTable.recordFact(
          handle, person, activity.activity(), at, asking, at.minus(ATTRIBUTION));
      for (Due.Key key : InstanceTable.wakeInside(handle, person, goals, now))
        wake.add(new Due(key.journeyId(), key.subscriberId(), key.entry(), now));
      enterAll(person, at, List.of(activity.itemId()), trigger -> triggeredBy(trigger, activity));
    }

    /** Whether a trigger of a journey people can enter counts or names this activity. */
    private boolean signalled(String activity) {
      for (JourneyStore.Live journey : live) {
        if (!journey.state().admits()) continue;
        switch (journey.latest().journey().trigger()) {
          case Trigger.Did did
          when did.times() > 1 && did.activity().equals(activity) -> {
            return true;
          }
          case Trigger.ProductNews news
          when activity.equals(interest(news.interest())) -> {
            return true;
          }
          default -> {}
        }
      }
      return false;
    }

    private boolean triggeredBy(Trigger trigger, ActivityAccepted activity) {
      if (!(trigger instanceof Trigger.Did did) || !did.activity().equals(activity.activity()))
        return false;
      if (did.times() <= 1) return true;
      Instant at = believed(activity.time());
      return InstanceTable.signals(
              handle,
              activity.subscriberId(),
              activity.activity(),
              activity.itemId(),
              at.minus(did.within()))
          >= did.times();
    }

    void email(
        String messageText, String person, Instant time, String fact, Trigger.EmailStep step) {
      Instant at = believed(time);
      Optional<MessageId> id = MessageId.parse(messageText);
      if (id.isPresent())
        InstanceTable.recordEmailFact(
            handle, id.get().campaignId(), id.get().runId(), person, fact, at);
      enterAll(
          person,
          at,
          List.of(),
          trigger -> trigger instanceof Trigger.Email email && email.step() == step);
    }

    void news(String productId, Instant time, Trigger.News kind) {
      Instant at = believed(time);
      for (JourneyStore.Live journey : live) {
        if (!journey.state().admits()) continue;
        if (!(journey.latest().journey().trigger() instanceof Trigger.ProductNews news)
            || news.news() != kind) continue;
        for (String person : InstanceTable.interested(
            handle, productId, List.of(interest(news.interest())), at.minus(news.within())))
          enter(journey, person, at, List.of(productId));
      }
    }

    void enterAll(
        String person,
        Instant at,
        List<String> items,
        java.util.function.Predicate<Trigger> fires) {
      for (JourneyStore.Live journey : live)
        if (journey.state().admits() && fires.test(journey.latest().journey().trigger()))
          enter(journey, person, at, items);
    }

    void enter(JourneyStore.Live live, String person, Instant at, List<String> items) {
      Journey journey = live.latest().journey();
      InstanceTable.Past past = InstanceTable.past(handle, live.id(), person);
      var segment = journey.entry().segment();
      boolean inSegment = segment == null || people.inSegment(segment, person);
      Admission admission = Admission.decide(
          journey.entry(), past.inside(), past.entries(), past.lastEntry(), inSegment, at);
      switch (admission) {
        case Admission.Refused refused -> metrics.refused(refused.why());
        case Admission.Admitted admitted -> {
          Instance instance = Instance.entering(
              live.id(), live.latest().version(), journey, person, admitted.entry(), at, items);
          if (InstanceTable.enter(handle, instance, now)) {
            entered.add(journey.trigger());
            wake.add(new Due(live.id(), person, admitted.entry(), now));
          } else metrics.refused(Admission.Why.ALREADY_INSIDE);
        }
      }
    }

    /** The event's own time, unless it claims to be in the future or long past. */
    private Instant believed(Instant time) {
      if (time.isAfter(now)) return now;
      Instant earliest = now.minus(LATEST_BELIEVED);
      return time.isBefore(earliest) ? earliest : time;
    }
  }

  static String interest(Trigger.Interest interest) {
    return switch (interest) {
      case VIEWED -> VIEW;
      case CARTED -> CART;
    };
  }
}
