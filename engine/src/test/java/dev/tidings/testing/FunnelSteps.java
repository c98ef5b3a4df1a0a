package dev.tidings.testing;

import dev.tidings.delivery.FunnelStep;
import dev.tidings.delivery.StepListener;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * Records a funnel step as the receipt store does for a message id a test makes up: the step once, and
 * in the same transaction the listener told of it when it is new.
 */
public final class FunnelSteps {
  private FunnelSteps() {}

  public static void record(
      Jdbi jdbi, StepListener listener, String message, long campaign, FunnelStep step) {
    jdbi.useTransaction(handle -> {
      int inserted = handle.execute("""
          INSERT INTO message_steps (message_id, step, campaign_id, first_at, source)
          VALUES (?, ?, ?, now(), 'pixel') ON CONFLICT DO NOTHING""", message, (short) step.code(), campaign);
      if (inserted == 1)
        listener.added(
            handle, List.of(new StepListener.AddedStep(message, campaign, step, Instant.now())));
    });
  }
}
