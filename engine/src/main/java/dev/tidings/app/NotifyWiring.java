package dev.tidings.app;

import dev.tidings.campaign.DigestSource;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.SubscriberPrices;
import dev.tidings.events.EventListener;
import dev.tidings.notify.DigestExpiry;
import dev.tidings.notify.Notifications;
import dev.tidings.notify.NotifyDigests;
import dev.tidings.notify.ProductNewsListener;
import dev.tidings.retention.Expiring;
import dev.tidings.storage.StoredRowRepair;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.notify.NotifyRoutes;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Follow notifications on the node's database. Every started node tells followers of new products
 * every second (rounds claim their products, so nodes share the work); the worker nodes' retention
 * drops the days of buckets past {@link #KEEP_DAYS}.
 */
public final class NotifyWiring implements Capability {
  /** Buckets kept: a digest's longest look back, and a few days for a digest that runs late. */
  static final int KEEP_DAYS = Notifications.MAX_DAYS + 5;

  private final Infrastructure infrastructure;
  private final Lazy<Notifications> notifications;
  private final Supplier<CatalogService> catalog;
  private final Supplier<SubscriberPrices> prices;

  /**
   * {@code catalog}: which products are sold out (their news is no longer told); {@code prices}: what
   * a digest's products cost in its subscriber's market.
   */
  NotifyWiring(
      Infrastructure infrastructure,
      Supplier<CatalogService> catalog,
      Supplier<SubscriberPrices> prices) {
    this.infrastructure = infrastructure;
    this.catalog = catalog;
    this.prices = prices;
    this.notifications = Lazy.of(() -> new Notifications(
        infrastructure.database().jdbi(),
        infrastructure.clock(),
        ids -> catalog.get().unavailableAmong(ids),
        infrastructure.metrics(),
        infrastructure.settings().catalog().backInStockNews()));
  }

  public Notifications notifications() {
    return notifications.get();
  }

  /** What digest campaigns tell. */
  public DigestSource digests() {
    return new NotifyDigests(notifications(), prices);
  }

  @Override
  public List<StoredRowRepair> repairs() {
    return List.of(notifications().storedRowRepair());
  }

  @Override
  public List<Expiring> expiring() {
    return List.of(
        new Expiring(
            DigestExpiry.of(infrastructure.database().jdbi()),
            infrastructure.settings().retention().messages()),
        new Expiring(notifications().bucketExpiry(), Duration.ofDays(KEEP_DAYS)));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new NotifyRoutes(notifications(), infrastructure.settings().maxBodyBytes()));
  }

  @Override
  public List<EventListener> eventListeners() {
    return List.of(new ProductNewsListener(notifications()));
  }
}
