package dev.tidings.testing;

import dev.tidings.delivery.FunnelStep;
import dev.tidings.events.DomainEvent;
import dev.tidings.events.EventListener;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Opened;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;

/**
 * Records a funnel step as the receipt store does for a message id a test makes up: the step once, and
 * when it is new a person's first open or click, its event handed to {@code listener} as the relay would.
 */
public final class FunnelSteps {
  private FunnelSteps() {}

  public static void record(
      Jdbi jdbi, EventListener listener, String message, long campaign, FunnelStep step) {
    int inserted =
        jdbi.withHandle(handle -> handle.execute("""
        INSERT INTO message_steps (message_id, step, campaign_id, first_at, source)
        VALUES (?, ?, ?, now(), 'pixel') ON CONFLICT DO NOTHING""", message, (short) step.code(), campaign));
    if (inserted == 0) return;
    DomainEvent event = switch (step) {
      case HUMAN_OPENED -> new Opened(message, campaign, "someone", Instant.now());
      case HUMAN_CLICKED -> new Clicked(message, campaign, "someone", Instant.now());
      default -> null;
    };
    if (event == null) return;
    try {
      listener.apply(ReceivedEvents.of(event));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
