package dev.tidings.app;

import dev.tidings.web.HttpServer;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.activity.ActivityRoutes;
import dev.tidings.web.audience.AudienceRoutes;
import dev.tidings.web.catalog.CatalogRoutes;
import dev.tidings.web.sample.SampleImageRoutes;
import java.util.ArrayList;
import java.util.List;

/** Starts the HTTP edge of a node with every capability's routes. */
public final class Http {
  private Http() {}

  public static HttpServer start(Node node, int port) {
    var settings = node.settings();
    List<RouteGroup> groups = new ArrayList<>();
    groups.add(new SampleImageRoutes());
    groups.add(
        new CatalogRoutes(node.catalog(), settings.maxBodyBytes(), settings.maxImportBytes()));
    groups.add(new AudienceRoutes(
        node.subscribers(),
        node.follows(),
        node.suppressions(),
        node.clock(),
        settings.maxBodyBytes(),
        settings.maxImportBytes()));
    groups.add(
        new ActivityRoutes(node.activity(), settings.maxBodyBytes(), settings.maxImportBytes()));
    return HttpServer.start(
        new HttpServer.Options(port, node.apiKey(), settings.shutdownGrace()),
        node.metrics(),
        node.dependencyChecks(),
        groups);
  }
}
