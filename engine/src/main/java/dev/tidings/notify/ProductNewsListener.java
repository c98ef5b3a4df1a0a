package dev.tidings.notify;

import dev.tidings.events.CloudEventType;
import dev.tidings.events.EventListener;
import java.util.List;
import java.util.Set;

/** Hears the catalogue's new and back-in-stock products and tells their brands' followers. */
public final class ProductNewsListener implements EventListener {
  public static final String NAME = "notify-product-news";
  private final Notifications notifications;

  public ProductNewsListener(Notifications notifications) {
    this.notifications = notifications;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<CloudEventType> types() {
    return Set.of(CloudEventType.PRODUCT_ADDED, CloudEventType.BACK_IN_STOCK);
  }

  @Override
  public void apply(List<ReceivedEvent> events) {
    notifications.tellProductNews(NAME, events);
  }
}
