package dev.tidings.delivery;

import dev.tidings.message.MessageId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Random message stories (sent; bounced, or delivered then perhaps opened by a person or Apple's
 * prefetch, clicked, complained about), every receipt repeated 1 to 3 times and all shuffled, with
 * what a sequential oracle says the funnel, the final statuses and the slot clicks must be.
 */
public record ReceiptStories(
    List<Receipt> receipts,
    Map<FunnelStep, Long> funnel,
    Map<String, DeliveryStatus> finalStatus,
    Map<Integer, Long> slotClicks) {
  static final String PERSON = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15";
  static final String APPLE_PREFETCH = "Mozilla/5.0";

  public static ReceiptStories generate(long campaign, int messages, Instant t0, Random random) {
    List<Receipt> receipts = new ArrayList<>();
    Map<String, DeliveryStatus> finalStatus = new HashMap<>();
    Map<FunnelStep, Long> funnel = new EnumMap<>(FunnelStep.class);
    Map<Integer, Long> slotClicks = new HashMap<>();
    for (int i = 0; i < messages; i++) {
      String message = new MessageId(campaign, 1, "s" + i).text();
      Instant sent = t0.plusSeconds(i);
      List<Receipt> story = new ArrayList<>();
      story.add(Receipt.of(message, DeliveryStatus.SENT, sent, ReceiptSource.SMTP));
      double fate = random.nextDouble();
      String agent = random.nextBoolean() ? PERSON : APPLE_PREFETCH;
      if (fate < 0.03) {
        story.add(
            Receipt.of(message, DeliveryStatus.BOUNCED, sent.plusSeconds(5), ReceiptSource.API));
      } else if (fate < 0.75) {
        story.add(
            Receipt.of(message, DeliveryStatus.DELIVERED, sent.plusSeconds(3), ReceiptSource.API));
        if (fate < 0.30) {
          story.add(engagement(
              message, DeliveryStatus.OPENED, sent.plusSeconds(600), agent, Optional.empty()));
          if (fate < 0.15) {
            int slot = random.nextInt(6);
            story.add(engagement(
                message, DeliveryStatus.CLICKED, sent.plusSeconds(700), PERSON, Optional.of(slot)));
            slotClicks.merge(slot, 1L, Long::sum);
          }
        }
        if (fate > 0.72)
          story.add(Receipt.of(
              message, DeliveryStatus.COMPLAINED, sent.plusSeconds(900), ReceiptSource.API));
      }
      // the oracle: every status a message got, with what it implies, once per message
      Set<FunnelStep> steps = new HashSet<>();
      DeliveryStatus highest = DeliveryStatus.QUEUED;
      for (Receipt r : story) {
        boolean person = r.userAgent().map(PERSON::equals).orElse(false);
        steps.addAll(FunnelStep.implied(r.status(), person));
        if (r.status().priority() > highest.priority()) highest = r.status();
      }
      steps.forEach(step -> funnel.merge(step, 1L, Long::sum));
      finalStatus.put(message, highest);
      for (Receipt r : story)
        for (int copies = 1 + random.nextInt(3); copies > 0; copies--) receipts.add(r);
    }
    Collections.shuffle(receipts, random);
    return new ReceiptStories(receipts, funnel, finalStatus, slotClicks);
  }

  static Receipt engagement(
      String message, DeliveryStatus status, Instant at, String agent, Optional<Integer> slot) {
    return new Receipt(
        message,
        status,
        at,
        status == DeliveryStatus.CLICKED ? ReceiptSource.CLICK : ReceiptSource.PIXEL,
        Optional.empty(),
        Optional.of(agent),
        Optional.of("public"),
        false,
        Optional.empty(),
        slot);
  }
}
