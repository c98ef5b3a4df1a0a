package dev.tidings.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.demo.ReaderAction.Fetch;
import dev.tidings.demo.ReaderAction.Receipt;
import dev.tidings.demo.ReaderAction.SiteEvent;
import dev.tidings.demo.ReaderAction.Who;
import dev.tidings.message.MessageId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EngagementPlanTest {
  private static final Duration SPREAD = Duration.ofMinutes(3);

  private static List<SentEmail> emails(int n) {
    List<SentEmail> emails = new ArrayList<>();
    for (int i = 0; i < n; i++)
      emails.add(new SentEmail(new MessageId(1, 1, "s-" + i).text(), "token" + i, 6, "Six picks"));
    return emails;
  }

  @Test
  void the_same_seed_gives_the_same_plan_in_time_order_within_the_spread() {
    var plan = EngagementPlan.of(emails(200), List.of("p-1", "p-2"), SPREAD, 42);
    assertThat(EngagementPlan.of(emails(200), List.of("p-1", "p-2"), SPREAD, 42))
        .isEqualTo(plan);
    assertThat(EngagementPlan.of(emails(200), List.of("p-1", "p-2"), SPREAD, 43))
        .isNotEqualTo(plan);
    for (int i = 1; i < plan.size(); i++)
      assertThat(plan.get(i).after()).isGreaterThanOrEqualTo(plan.get(i - 1).after());
    assertThat(plan.getLast().after()).isLessThanOrEqualTo(SPREAD.plusMinutes(2));
  }

  @Test
  void every_email_is_delivered_or_bounced_and_a_bounced_one_is_never_opened() {
    var emails = emails(400);
    var plan = EngagementPlan.of(emails, List.of(), SPREAD, 7);
    for (SentEmail email : emails) {
      var receipts = plan.stream()
          .filter(a -> a instanceof Receipt r && r.messageId().equals(email.messageId()))
          .map(a -> ((Receipt) a).status())
          .toList();
      assertThat(receipts).containsAnyOf("delivered", "bounced");
      if (receipts.contains("bounced"))
        assertThat(plan)
            .as("nothing fetched of bounced %s", email.token())
            .noneMatch(a -> a instanceof Fetch f
                && f.paths().stream().anyMatch(path -> path.split("/")[2].equals(email.token())));
    }
    long bounced = plan.stream()
        .filter(a -> a instanceof Receipt r && r.status().equals("bounced"))
        .count();
    assertThat(bounced).isBetween(4L, 40L);
  }

  @Test
  void opens_are_bursts_of_the_pixel_and_every_slot_and_machines_prefetch_too() {
    var plan = EngagementPlan.of(emails(300), List.of("p-1"), SPREAD, 11);
    var bursts = plan.stream()
        .filter(a -> a instanceof Fetch f && f.paths().getFirst().startsWith("/p/"))
        .map(a -> (Fetch) a)
        .toList();
    assertThat(bursts).allMatch(f -> f.paths().size() == 7);
    assertThat(bursts)
        .anyMatch(f -> f.who() == Who.PREFETCH && f.userAgent().equals("Mozilla/5.0"));
    assertThat(bursts).anyMatch(f -> f.who() == Who.PERSON);
    assertThat(plan).anyMatch(a -> a instanceof Fetch f && f.who() == Who.SCANNER);
    assertThat(plan)
        .anyMatch(a -> a instanceof Fetch f
            && f.who() == Who.PERSON
            && f.paths().getFirst().startsWith("/c/"));
    assertThat(plan).anyMatch(a -> a instanceof SiteEvent e && e.type().equals("purchase"));
    assertThat(plan).anyMatch(a -> a instanceof ReaderAction.Unsubscribe);
  }

  @Test
  void a_person_clicks_only_after_opening() {
    var plan = EngagementPlan.of(emails(300), List.of(), SPREAD, 5);
    for (var action : plan) {
      if (!(action instanceof Fetch click)
          || click.who() != Who.PERSON
          || !click.paths().getFirst().startsWith("/c/")) continue;
      String token = click.paths().getFirst().split("/")[2];
      assertThat(plan)
          .anyMatch(a -> a instanceof Fetch open
              && open.who() == Who.PERSON
              && open.paths().getFirst().equals("/p/" + token)
              && open.after().compareTo(click.after()) < 0);
    }
  }

  @Test
  void the_first_slots_are_clicked_more_often() {
    var random = new SplittableRandom(1);
    int[] counts = new int[6];
    for (int i = 0; i < 21_000; i++) counts[EngagementPlan.favouredSlot(random, 6)]++;
    assertThat(counts[0]).isGreaterThan(counts[2]);
    assertThat(counts[2]).isGreaterThan(counts[5]);
    assertThat(counts[5]).isPositive();
  }
}
