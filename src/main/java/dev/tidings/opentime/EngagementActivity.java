package dev.tidings.opentime;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.activity.EventType;
import dev.tidings.queue.BatchResult;
import dev.tidings.queue.Topic;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Feeds what people did with their emails back into activity: a slot click is an {@code email_click}
 * on its product, which the recommenders weigh like a click on the site. Opens and image fetches name
 * no product and are often machines; the delivery capability reads those. A redelivered batch counts
 * nothing twice: each click's event id is derived from the click itself.
 */
public final class EngagementActivity implements Topic.BatchOf<Engagements> {
  private final ActivityIntake intake;

  public EngagementActivity(
      ActivityIntake intake, HumanEngagements people, io.micrometer.core.instrument.MeterRegistry metrics) {
    this.intake = intake;
  }

  @Override
  public BatchResult handle(List<Topic.Received<Engagements>> batch) {
    List<ActivityEvent> clicks = batch.stream()
        .flatMap(received -> received.value().items().stream())
        .filter(engagement -> engagement.kind() == Engagement.Kind.SLOT_CLICK)
        .flatMap(engagement -> engagement.productId().stream()
            .map(product -> new ActivityEvent(
                Optional.of(eventId(engagement)),
                engagement.subscriberId(),
                EventType.EMAIL_CLICK,
                product,
                engagement.at(),
                1,
                Optional.empty())))
        .toList();
    if (!clicks.isEmpty()) intake.record(clicks);
    return BatchResult.ACK_ALL;
  }

  private static String eventId(Engagement click) {
    String what =
        click.messageId() + "/" + click.slot().orElse(-1) + "/" + click.at().toEpochMilli();
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(what.getBytes(UTF_8));
      return "email-click-" + HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
