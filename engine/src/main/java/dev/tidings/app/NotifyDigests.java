package dev.tidings.app;

import dev.tidings.campaign.DigestSource;
import dev.tidings.message.MessageId;
import dev.tidings.notify.Digest;
import dev.tidings.notify.Notifications;
import java.util.List;

/** The notify capability as the digests' source for campaigns. */
final class NotifyDigests implements DigestSource {
  /**
   * A system property for the fault suite only: a node started with it set to {@code true} halts (as
   * {@code kill -9} would stop it) right after the transport accepted its first digest email, before
   * the digest is marked told.
   */
  static final String HALT_BEFORE_FLUSH = "tidings.test.halt-before-digest-flush";

  private static final boolean HALT = Boolean.getBoolean(HALT_BEFORE_FLUSH);

  private final Notifications notifications;

  NotifyDigests(Notifications notifications) {
    this.notifications = notifications;
  }

  @Override
  public Pending pending(String subscriberId, int lookBackDays) {
    Digest digest = notifications.digest(subscriberId, lookBackDays);
    List<Notice> notices = digest.items().stream()
        .map(item -> new Notice(
            item.content().id(),
            item.content().type().wire(),
            item.kind().wire(),
            item.content().title(),
            item.content().url(),
            item.content().imageUrl(),
            item.day()))
        .toList();
    return new Pending() {
      @Override
      public List<Notice> notices() {
        return notices;
      }

      @Override
      public void sent(MessageId message) {
        if (HALT) Runtime.getRuntime().halt(137);
        notifications.flushSent(digest, message.campaignId(), message.runId());
      }

      @Override
      public String note() {
        return notifications.handoverNote(digest);
      }
    };
  }

  @Override
  public void sentByLostWorker(MessageId message, String note) {
    notifications.flushSentByLostWorker(note, message.campaignId(), message.runId());
  }
}
