package dev.tidings.opentime;

import java.util.List;

/**
 * Engagements that travel in one queue message: at the rate slot images are fetched (each email's k
 * at once), one message per engagement would make the queue, not the request, the cost of an open.
 */
public record Engagements(List<Engagement> items) {
  public Engagements {
    items = List.copyOf(items);
  }
}
