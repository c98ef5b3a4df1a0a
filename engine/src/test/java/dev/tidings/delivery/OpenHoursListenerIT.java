package dev.tidings.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.message.MessageId;
import dev.tidings.sendtime.HourOfWeek;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The funnel's first human opens become open hours on the real PostgreSQL, in the receipts' own
 * transaction; machines' opens, previews' and unreadable message ids add nothing.
 */
class OpenHoursListenerIT {
  private Database database;
  private final StepListener listener = new OpenHoursListener();

  @BeforeEach
  void open() {
    database = TestDatabases.real();
  }

  @AfterEach
  void close() {
    database.close();
  }

  private static String message(long run, String subscriber) {
    return new MessageId(5, run, subscriber).text();
  }

  private void added(List<StepListener.AddedStep> steps) {
    database.jdbi().useTransaction(handle -> listener.added(handle, steps));
  }

  @Test
  void each_first_human_open_counts_once_at_its_hour_of_the_week() {
    Instant mondayTen = Instant.parse("2026-03-02T10:15:00Z");
    Instant tuesdayEight = Instant.parse("2026-03-03T08:59:00Z");
    added(List.of(
        new StepListener.AddedStep(message(1, "ann"), 5, FunnelStep.HUMAN_OPENED, mondayTen),
        new StepListener.AddedStep(message(2, "ann"), 5, FunnelStep.HUMAN_OPENED, mondayTen),
        new StepListener.AddedStep(message(1, "bob"), 5, FunnelStep.HUMAN_OPENED, tuesdayEight),
        new StepListener.AddedStep(message(1, "cid"), 5, FunnelStep.OPENED, mondayTen),
        new StepListener.AddedStep(message(1, "cid"), 5, FunnelStep.HUMAN_CLICKED, mondayTen),
        new StepListener.AddedStep(
            message(MessageId.UNCOUNTED_RUN, "dee"), 5, FunnelStep.HUMAN_OPENED, mondayTen),
        new StepListener.AddedStep("not-a-message-id", 5, FunnelStep.HUMAN_OPENED, mondayTen)));
    added(List.of(
        new StepListener.AddedStep(message(3, "ann"), 5, FunnelStep.HUMAN_OPENED, mondayTen)));

    var counts = new OpenHours(database.jdbi()).counts(List.of("ann", "bob", "cid", "dee"));
    assertThat(counts).containsOnlyKeys("ann", "bob");
    assertThat(counts.get("ann")[HourOfWeek.of(mondayTen)]).isEqualTo(3);
    assertThat(counts.get("bob")[HourOfWeek.of(tuesdayEight)]).isEqualTo(1);
    assertThat(HourOfWeek.of(tuesdayEight)).isEqualTo(24 + 8);
    long[] everyone = new OpenHours(database.jdbi()).everyone();
    assertThat(everyone[10]).isEqualTo(3);
    assertThat(everyone[32]).isEqualTo(1);
    assertThat(Arrays.stream(everyone).sum()).isEqualTo(4);
  }
}
