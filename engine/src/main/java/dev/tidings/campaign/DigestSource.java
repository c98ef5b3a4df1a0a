package dev.tidings.campaign;

import dev.tidings.catalog.Price;
import dev.tidings.message.MessageId;
import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a digest campaign's emails get what to tell each subscriber (the notify capability answers). A
 * pending digest is read when the email is written and marked sent only after the transport accepted
 * it, so what arrives in between, or what a failed send held, is told by the next digest. A worker that
 * stops between the two leaves the pending digest's {@link Pending#note()} in the send ledger, and the
 * worker that settles the recipient marks it told then ({@link #sentByLostWorker}).
 */
public interface DigestSource {
  /** For nodes with nothing to tell: every digest is empty. */
  DigestSource NONE = (subscriberId, lookBackDays) -> Pending.NOTHING;

  Pending pending(String subscriberId, int lookBackDays);

  /**
   * Told before a batch of digests is written, so that what they share per subscriber (their market) is
   * read for the whole batch at once rather than once per email.
   */
  default void prepare(Collection<String> subscriberIds) {}

  /**
   * Marks told what a digest whose {@link Pending#note()} this is held: its email was handed to the
   * transport by a worker that stopped before {@link Pending#sent} ran, so the subscriber may have it.
   * Marking twice changes nothing.
   */
  default void sentByLostWorker(MessageId message, String note) {}

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

    /**
     * What {@link DigestSource#sentByLostWorker} needs to mark these notices told without this object:
     * the send ledger keeps it with the email's handover. Null when there is nothing to mark.
     */
    default @Nullable String note() {
      return null;
    }
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
      LocalDate day,
      Optional<Price> price) {
    /** A notice without a price (content that is not a product, or a product no longer known). */
    public Notice(
        String id,
        String type,
        String kind,
        String title,
        Optional<String> url,
        Optional<String> imageUrl,
        LocalDate day) {
      this(id, type, kind, title, url, imageUrl, day, Optional.empty());
    }
  }
}
