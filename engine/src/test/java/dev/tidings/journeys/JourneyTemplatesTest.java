package dev.tidings.journeys;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class JourneyTemplatesTest {
  @Test
  void every_template_builds_a_journey_that_sends_each_of_its_emails_and_has_a_hold_out() {
    assertThat(JourneyTemplates.all())
        .extracting(JourneyTemplates.Template::key)
        .containsExactly(
            "welcome",
            "abandoned_cart",
            "browse_abandonment",
            "back_in_stock",
            "price_drop",
            "post_purchase",
            "win_back");
    for (JourneyTemplates.Template template : JourneyTemplates.all()) {
      List<Long> ids =
          LongStream.rangeClosed(101, 100 + template.emails().size()).boxed().toList();
      Journey journey = template.journey().apply(ids);
      Set<Long> sent = new HashSet<>();
      for (Step step : journey.steps())
        if (step instanceof Step.Send send) {
          sent.add(send.campaignId());
          assertThat(template.emails())
              .as(template.key() + " names its send steps")
              .extracting(JourneyTemplates.Email::step)
              .contains(send.id());
        }
      assertThat(sent).as(template.key()).containsExactlyInAnyOrderElementsOf(ids);
      assertThat(journey.holdOut()).as(template.key()).isPositive();
      assertThat(journey.goal()).as(template.key()).isEqualTo("purchase");
    }
  }

  @Test
  void the_abandoned_cart_waits_an_hour_then_a_day_and_lets_a_person_in_again_after_a_week() {
    Journey cart =
        JourneyTemplates.get("abandoned_cart").orElseThrow().journey().apply(List.of(1L, 2L));
    assertThat(cart.trigger())
        .isEqualTo(new Trigger.Did("add_to_cart", 1, java.time.Duration.ofHours(1)));
    assertThat(cart.entry().reentryAfter()).isEqualTo(java.time.Duration.ofDays(7));
    assertThat(cart.steps())
        .extracting(Step::id)
        .containsExactly("hour", "reminder", "day", "last-call");
  }
}
