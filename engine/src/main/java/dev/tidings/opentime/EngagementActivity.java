package dev.tidings.opentime;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.activity.IntakeResult;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Topic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Feeds what people did with their emails back into activity: a person's slot click is an {@code
 * email_click} on its product, which the recommenders weigh like a click on the site. It counts once
 * per email and slot: the event id is derived from the message and the slot alone, and the events
 * table keeps the first event of an id, so repeated clicks, redelivered batches and concurrent
 * consumers on any node add nothing. Machines' clicks (link scanners, clicks within seconds of the
 * send) never count: {@link HumanEngagements} decides, as it does for the funnel. Opens and image
 * fetches name no product and are mostly machines; they stay in the funnel. What is left out is
 * counted in {@value #SKIPPED} by reason ({@code machine}, {@code repeat}).
 */
public final class EngagementActivity implements Topic.BatchOf<Engagements> {
  static final String SKIPPED = "tidings_engagement_activity_skipped";

  private final ActivityIntake intake;
  private final HumanEngagements people;
  private final Counter machines;
  private final Counter repeats;

  public EngagementActivity(ActivityIntake intake, HumanEngagements people, MeterRegistry metrics) {
    this.intake = intake;
    this.people = people;
    this.machines = Counter.builder(SKIPPED)
        .description("Email engagements not counted into activity, by reason")
        .tag("reason", "machine")
        .register(metrics);
    this.repeats = Counter.builder(SKIPPED)
        .description("Email engagements not counted into activity, by reason")
        .tag("reason", "repeat")
        .register(metrics);
  }

  @Override
  public BatchResult handle(List<Topic.Received<Engagements>> batch) {
    List<Engagement> clicks = batch.stream()
        .flatMap(received -> received.value().items().stream())
        .filter(engagement -> engagement.kind() == Engagement.Kind.SLOT_CLICK)
        .filter(engagement ->
            engagement.slot().isPresent() && engagement.productId().isPresent())
        .toList();
    if (clicks.isEmpty()) return BatchResult.ACK_ALL;
    List<Engagement> human = people.madeByPeople(clicks);
    List<ActivityEvent> events = human.stream()
        .map(click -> new ActivityEvent(
            Optional.of(eventId(click)),
            click.subscriberId(),
            EventType.EMAIL_CLICK,
            click.productId().orElseThrow(),
            click.at(),
            1,
            Optional.empty()))
        .toList();
    IntakeResult stored = events.isEmpty() ? IntakeResult.NOTHING : intake.record(events);
    machines.increment(clicks.size() - human.size());
    repeats.increment(stored.duplicates());
    return BatchResult.ACK_ALL;
  }

  /** The same for every click on one slot of one email: the store keeps the first. */
  static String eventId(Engagement click) {
    String what = click.messageId() + "/" + click.slot().orElseThrow();
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(what.getBytes(UTF_8));
      return "email-slot-click-" + HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
