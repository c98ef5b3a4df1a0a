package dev.tidings.events;

import dev.tidings.events.activity.ActivityAccepted;
import dev.tidings.events.audience.ConsentChanged;
import dev.tidings.events.audience.Erased;
import dev.tidings.events.audience.Subscribed;
import dev.tidings.events.audience.Suppressed;
import dev.tidings.events.campaign.HandedOver;
import dev.tidings.events.campaign.RunCompleted;
import dev.tidings.events.catalog.BackInStock;
import dev.tidings.events.catalog.LeftFeed;
import dev.tidings.events.catalog.PriceDropped;
import dev.tidings.events.catalog.ProductAdded;
import dev.tidings.events.delivery.Bounced;
import dev.tidings.events.delivery.Clicked;
import dev.tidings.events.delivery.Complained;
import dev.tidings.events.delivery.Delivered;
import dev.tidings.events.delivery.Opened;
import dev.tidings.events.notify.DigestSent;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every event Tidings tells, with its CloudEvents {@code type}: a closed set, so that the type is a
 * bounded metric label, a webhook endpoint chooses from a known list, and docs/events.md documents
 * each (a test checks both).
 */
public enum CloudEventType {
  SUBSCRIBED("dev.tidings.audience.subscribed", Subscribed.class),
  CONSENT_CHANGED("dev.tidings.audience.consent_changed", ConsentChanged.class),
  UNSUBSCRIBED("dev.tidings.audience.unsubscribed", dev.tidings.events.audience.Unsubscribed.class),
  SUPPRESSED("dev.tidings.audience.suppressed", Suppressed.class),
  ERASED("dev.tidings.audience.erased", Erased.class),
  ACTIVITY_ACCEPTED("dev.tidings.activity.accepted", ActivityAccepted.class),
  DELIVERED("dev.tidings.delivery.delivered", Delivered.class),
  BOUNCED("dev.tidings.delivery.bounced", Bounced.class),
  COMPLAINED("dev.tidings.delivery.complained", Complained.class),
  OPENED("dev.tidings.delivery.opened", Opened.class),
  CLICKED("dev.tidings.delivery.clicked", Clicked.class),
  EMAIL_UNSUBSCRIBED(
      "dev.tidings.delivery.unsubscribed", dev.tidings.events.delivery.Unsubscribed.class),
  HANDED_OVER("dev.tidings.campaign.handed_over", HandedOver.class),
  RUN_COMPLETED("dev.tidings.campaign.run_completed", RunCompleted.class),
  PRODUCT_ADDED("dev.tidings.catalog.product_added", ProductAdded.class),
  PRICE_DROPPED("dev.tidings.catalog.price_dropped", PriceDropped.class),
  BACK_IN_STOCK("dev.tidings.catalog.back_in_stock", BackInStock.class),
  LEFT_FEED("dev.tidings.catalog.left_feed", LeftFeed.class),
  DIGEST_SENT("dev.tidings.notify.digest_sent", DigestSent.class);

  private static final Map<String, CloudEventType> BY_NAME =
      Arrays.stream(values()).collect(Collectors.toMap(t -> t.name, Function.identity()));
  private static final Map<Class<?>, CloudEventType> BY_CLASS =
      Arrays.stream(values()).collect(Collectors.toMap(t -> t.record, Function.identity()));

  private final String name;
  private final Class<? extends DomainEvent> record;

  CloudEventType(String name, Class<? extends DomainEvent> record) {
    this.name = name;
    this.record = record;
  }

  /** The CloudEvents {@code type}, such as {@code dev.tidings.delivery.opened}. */
  public String typeName() {
    return name;
  }

  /** The record that carries the event's data. */
  public Class<? extends DomainEvent> record() {
    return record;
  }

  public static Optional<CloudEventType> named(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** The type of {@code event}; every record that implements {@link DomainEvent} is listed here. */
  public static CloudEventType of(DomainEvent event) {
    CloudEventType type = BY_CLASS.get(event.getClass());
    if (type == null)
      throw new IllegalArgumentException(event.getClass().getName() + " is not a listed event");
    return type;
  }
}
