package dev.tidings.sendtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.events.EventListener.ReceivedEvent;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Opened;
import dev.tidings.storage.Database;
import dev.tidings.testing.ReceivedEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The funnel's first human opens become open hours on the real PostgreSQL, each once however often
 * it is delivered; clicks add nothing.
 */
class OpenHoursListenerIT {
  private Database database;
  private OpenHoursListener listener;

  @BeforeEach
  void open() {
    database = dev.tidings.testing.TestDatabases.real();
    listener = new OpenHoursListener(database.jdbi());
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void each_first_human_open_counts_once_at_its_hour_of_the_week() {
    Instant mondayTen = Instant.parse("2026-03-02T10:15:00Z");
    Instant tuesdayEight = Instant.parse("2026-03-03T08:59:00Z");
    List<ReceivedEvent> first = ReceivedEvents.of(
        new Opened("m1", 5, "ann", mondayTen),
        new Opened("m2", 5, "ann", mondayTen),
        new Opened("m3", 5, "bob", tuesdayEight),
        new Clicked("m4", 5, "cid", mondayTen));
    listener.apply(first);
    // delivered again (at least once), beside a new one
    List<ReceivedEvent> again = new ArrayList<>(first);
    again.addAll(ReceivedEvents.of(new Opened("m5", 5, "ann", mondayTen)));
    listener.apply(again);

    var counts = new OpenHours(database.jdbi()).counts(List.of("ann", "bob", "cid"));
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
