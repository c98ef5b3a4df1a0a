package dev.tidings.app;

import dev.tidings.audience.FollowService;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionChanges;
import dev.tidings.audience.SuppressionListener;
import dev.tidings.audience.SuppressionService;
import dev.tidings.events.EventListener;
import dev.tidings.storage.StoredRowRepair;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.Uploads;
import dev.tidings.web.audience.AudienceRoutes;
import java.util.List;

/** Subscribers, what they follow, and the addresses never to mail, on the node's database. */
public final class AudienceWiring implements Capability {
  private final Infrastructure infrastructure;
  private final Lazy<SubscriberService> subscribers;
  private final Lazy<FollowService> follows;
  private final Lazy<SuppressionService> suppressions;

  AudienceWiring(Infrastructure infrastructure) {
    this.infrastructure = infrastructure;
    this.subscribers = Lazy.of(
        () -> new SubscriberService(infrastructure.database().jdbi(), infrastructure.clock()));
    this.follows =
        Lazy.of(() -> new FollowService(infrastructure.database().jdbi(), infrastructure.clock()));
    this.suppressions = Lazy.of(
        () -> new SuppressionService(infrastructure.database().jdbi(), infrastructure.clock()));
  }

  public SubscriberService subscribers() {
    return subscribers.get();
  }

  public FollowService follows() {
    return follows.get();
  }

  public SuppressionService suppressions() {
    return suppressions.get();
  }

  @Override
  public List<StoredRowRepair> repairs() {
    return List.of(subscribers().storedRowRepair());
  }

  @Override
  public List<RouteGroup> routes() {
    var settings = infrastructure.settings();
    return List.of(new AudienceRoutes(
        subscribers(),
        follows(),
        suppressions(),
        new SuppressionChanges(infrastructure.metrics()),
        infrastructure.clock(),
        settings.maxBodyBytes(),
        Uploads.underDataDirectory(settings.dataDir(), settings.maxImportBytes())));
  }

  @Override
  public List<EventListener> eventListeners() {
    return List.of(
        new SuppressionListener(infrastructure.database().jdbi(), infrastructure.clock()));
  }
}
