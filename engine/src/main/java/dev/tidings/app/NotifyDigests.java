package dev.tidings.app;

import dev.tidings.campaign.DigestSource;
import dev.tidings.message.MessageId;
import dev.tidings.notify.Digest;
import dev.tidings.notify.Notifications;
import java.util.List;

/** The notify capability as the digests' source for campaigns. */
final class NotifyDigests implements DigestSource {
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
        notifications.flushSent(digest, message.campaignId(), message.runId());
      }
    };
  }
}
