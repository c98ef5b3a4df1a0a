package dev.tidings.campaign;

import dev.tidings.message.MessageId;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * Where a digest campaign's emails get what to tell each subscriber (the notify capability answers). A
 * pending digest is read when the email is written and marked sent only after the transport accepted
 * it, so what arrives in between, or what a failed send held, is told by the next digest.
 */
public interface DigestSource {
  /** For nodes with nothing to tell: every digest is empty. */
  DigestSource NONE = (subscriberId, lookBackDays) -> Pending.NOTHING;

  Pending pending(String subscriberId, int lookBackDays);

  /** What one subscriber's email will tell, and how to mark it told. */
  interface Pending {
    Pending NOTHING = new Pending() {
      @Override
      public List<Notice> notices() {
        return List.of();
      }

      @Override
      public void sent(MessageId message) {}
    };

    List<Notice> notices();

    /** Marks these notices told by {@code message}. */
    void sent(MessageId message);
  }

  /**
   * One thing to tell.
   *
   * @param kind why the subscriber hears of it: {@code followed} or {@code nearby}
   * @param url and {@code imageUrl} are absolute http(s) URLs
   */
  record Notice(
      String id,
      String type,
      String kind,
      String title,
      Optional<String> url,
      Optional<String> imageUrl,
      LocalDate day) {}
}
