package dev.tidings.journeys;

import dev.tidings.campaign.Audience;
import java.time.Instant;
import java.time.ZoneId;

/** What a decision about one person may ask, answered by whoever holds it; never written to. */
public interface Facts {
  /** Whether the person did {@code activity} at or after {@code since}. */
  boolean did(String activity, Instant since);

  /** Whether they opened an email of this journey at or after {@code since}. */
  boolean opened(Instant since);

  /** Whether they clicked an email of this journey at or after {@code since}. */
  boolean clicked(Instant since);

  /** Whether they are in the segment now. */
  boolean inSegment(Audience segment);

  /** Where they live, for waits until a time of day. */
  ZoneId zone();

  /** Their own best hour to be sent email, at or after {@code after} and within a day of it. */
  Instant bestHourAfter(Instant after);
}
