package dev.tidings.app;

import dev.tidings.campaign.DigestSource;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.message.MessageId;
import dev.tidings.notify.ContentType;
import dev.tidings.notify.Digest;
import dev.tidings.notify.Notifications;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

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
  private final Supplier<CatalogService> catalog;

  /** {@code catalog}: what the products told cost now (a digest shows their price and sale). */
  NotifyDigests(Notifications notifications, Supplier<CatalogService> catalog) {
    this.notifications = notifications;
    this.catalog = catalog;
  }

  @Override
  public Pending pending(String subscriberId, int lookBackDays) {
    Digest digest = notifications.digest(subscriberId, lookBackDays);
    Map<String, Product> products = catalog.get().getAll(digest.items().stream()
        .filter(item -> item.content().type() == ContentType.PRODUCT)
        .map(item -> item.content().id())
        .toList());
    List<Notice> notices = digest.items().stream()
        .map(item -> new Notice(
            item.content().id(),
            item.content().type().wire(),
            item.kind().wire(),
            item.content().title(),
            item.content().url(),
            item.content().imageUrl(),
            item.day(),
            Optional.ofNullable(products.get(item.content().id()))
                .map(product -> new NoticePrice(
                    product.price(), product.salePrice(), product.currency()))))
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
