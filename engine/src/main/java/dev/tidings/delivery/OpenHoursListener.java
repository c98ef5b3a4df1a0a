package dev.tidings.delivery;

import dev.tidings.message.MessageId;
import dev.tidings.sendtime.OpenHours;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Feeds the funnel's first human open of each counted email into the send-time open hours, in the
 * receipts' transaction: each email a person opened adds one open at the hour they first opened it, once,
 * whatever proxies fetched before and however often the receipt comes again. Previews' opens
 * (uncounted runs) add nothing. It lives with the funnel, not with the open hours: the send-time
 * package sits below the campaigns, which the funnel's package uses, so it cannot know this listener.
 */
public final class OpenHoursListener implements StepListener {
  @Override
  public void added(Handle handle, List<AddedStep> steps) {
    List<OpenHours.Open> opens = new ArrayList<>();
    for (AddedStep step : steps) {
      if (step.step() != FunnelStep.HUMAN_OPENED) continue;
      MessageId.parse(step.messageId())
          .filter(MessageId::counted)
          .ifPresent(id -> opens.add(new OpenHours.Open(id.subscriberId(), step.at())));
    }
    OpenHours.record(handle, opens);
  }
}
