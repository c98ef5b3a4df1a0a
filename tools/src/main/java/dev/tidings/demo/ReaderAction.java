package dev.tidings.demo;

import java.time.Duration;
import java.util.List;

/**
 * One thing a reader, their mail client or a machine does, {@code after} the simulation starts. A
 * closed set: the simulator carries out each kind its own way.
 */
public sealed interface ReaderAction {
  Duration after();

  /**
   * Fetches URLs of an email at once, as a client does when it shows the email (the pixel and every
   * slot image in one burst) or when a link is followed.
   *
   * @param who for the log and the tests: a person, a proxy's prefetch, a scanner
   */
  record Fetch(Duration after, List<String> paths, String userAgent, Who who)
      implements ReaderAction {
    public Fetch {
      paths = List.copyOf(paths);
    }
  }

  /** A delivery receipt as a provider reports it, through {@code POST /api/v1/delivery-events}. */
  record Receipt(Duration after, String messageId, String status, String reason)
      implements ReaderAction {}

  /** The one-click unsubscribe a mail client posts (RFC 8058) to {@code /u/{token}}. */
  record Unsubscribe(Duration after, String token) implements ReaderAction {}

  /** Shop activity through {@code POST /api/v1/events}: a view, a cart, a purchase. */
  record SiteEvent(Duration after, String userId, String type, String itemId)
      implements ReaderAction {}

  /** Who made a fetch: what the funnel is expected to tell apart. */
  enum Who {
    PERSON,
    PREFETCH,
    SCANNER
  }
}
