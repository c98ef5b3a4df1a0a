package dev.tidings.journeys;

import dev.tidings.campaign.Audience;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What journeys ask of the capabilities that know the people inside them (the audience, the send-time
 * planner, the delivery funnel); {@code app} answers it from what those publish.
 */
public interface People {
  /** Where each person lives (UTC for one not known), by subscriber id. */
  Map<String, ZoneId> zones(Collection<String> subscriberIds);

  /** Whether the person is in the segment now: its conditions, consent and suppressions. */
  boolean inSegment(Audience segment, String subscriberId);

  /** Their own best hour to be sent email, at or after {@code after} and within a day of it. */
  Instant bestHourAfter(String subscriberId, ZoneId zone, Instant after);

  /** The emails of every campaign and journey sent to each person since {@code since}. */
  Map<String, List<SentEmail>> sentSince(Collection<String> subscriberIds, Instant since);

  /** An email sent to a person: its message id ({@code MessageId#text}) and when it went. */
  record SentEmail(String messageId, Instant at) {}
}
