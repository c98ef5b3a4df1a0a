package dev.tidings.app;

import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.DigestSource;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Markets;
import dev.tidings.notify.DigestExpiry;
import dev.tidings.notify.Notifications;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.notify.NotifyRoutes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follow notifications on the node's database. Every started node tells followers of new products
 * every second (rounds claim their products, so nodes share the work); the worker nodes' retention
 * drops the days of buckets past {@link #KEEP_DAYS}.
 */
public final class NotifyWiring implements Capability {
  private static final Logger log = LoggerFactory.getLogger(NotifyWiring.class);
  /** Buckets kept: a digest's longest look back, and a few days for a digest that runs late. */
  static final int KEEP_DAYS = Notifications.MAX_DAYS + 5;

  private static final Duration NEWS_POLL = Duration.ofSeconds(1);

  private final Infrastructure infrastructure;
  private final Lazy<Notifications> notifications;
  private final Supplier<CatalogService> catalog;

  /** {@code catalog}: which products are sold out (their news is no longer told). */
  NotifyWiring(Infrastructure infrastructure, Supplier<CatalogService> catalog) {
    this.infrastructure = infrastructure;
    this.catalog = catalog;
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
    var jdbi = infrastructure.database().jdbi();
    return new NotifyDigests(
        notifications(),
        catalog,
        () -> new Markets(jdbi, infrastructure.clock()),
        () -> new SubscriberService(jdbi, infrastructure.clock()));
  }

  @Override
  public List<dev.tidings.storage.StoredRowRepair> repairs() {
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
  public List<Background> background() {
    return List.of(() -> {
      var news = Executors.newSingleThreadScheduledExecutor(
          Thread.ofVirtual().name("product-news").factory());
      news.scheduleWithFixedDelay(
          this::tellProductNews, 0, NEWS_POLL.toMillis(), TimeUnit.MILLISECONDS);
      return news::shutdownNow;
    });
  }

  /** Tells what waits. */
  private void tellProductNews() {
    try {
      notifications().tellAllProductNews();
    } catch (RuntimeException e) {
      log.warn("notifications: telling new products failed; trying again in {}", NEWS_POLL, e);
    }
  }
}
