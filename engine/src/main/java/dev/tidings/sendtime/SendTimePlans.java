package dev.tidings.sendtime;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Plans a stream of recipients a page at a time: one read of the page's open hours, then the planner
 * on each. Nothing but one page is held in memory. Thread-safe (each plan has its own iterator).
 */
public final class SendTimePlans {
  public static final int PAGE = 1_000;

  private final OpenHours openHours;
  private final SendTimeMetrics metrics;

  public SendTimePlans(OpenHours openHours, SendTimeMetrics metrics) {
    this.openHours = openHours;
    this.metrics = metrics;
  }

  /** A recipient to plan. */
  public record Recipient(String subscriberId, ZoneId timeZone) {}

  /** A recipient with their planned slot. */
  public record Planned(String subscriberId, SendTimePlanner.Slot slot) {}

  /** A planner for one campaign run: reads everyone's open hours once. */
  public SendTimePlanner planner(long campaignId, Instant start, Duration within, double holdout) {
    return new SendTimePlanner(campaignId, start, within, holdout, openHours.everyone());
  }

  /** Lazily plans {@code recipients}, counting each in the metrics as it is planned. */
  public Iterator<Planned> plan(SendTimePlanner planner, Iterator<Recipient> recipients) {
    return new Iterator<>() {
      private List<Planned> page = List.of();
      private int position;

      @Override
      public boolean hasNext() {
        if (position < page.size()) return true;
        if (!recipients.hasNext()) return false;
        List<Recipient> next = new ArrayList<>(PAGE);
        while (next.size() < PAGE && recipients.hasNext()) next.add(recipients.next());
        Map<String, int[]> counts =
            openHours.counts(next.stream().map(Recipient::subscriberId).toList());
        List<Planned> planned = new ArrayList<>(next.size());
        for (Recipient recipient : next) {
          var slot = planner.plan(
              recipient.subscriberId(), recipient.timeZone(), counts.get(recipient.subscriberId()));
          metrics.count(slot);
          planned.add(new Planned(recipient.subscriberId(), slot));
        }
        page = planned;
        position = 0;
        return true;
      }

      @Override
      public Planned next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.get(position++);
      }
    };
  }
}
