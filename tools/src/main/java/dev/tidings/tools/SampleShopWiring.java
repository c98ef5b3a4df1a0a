package dev.tidings.tools;

import dev.tidings.app.Capability;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.sample.SampleImageRoutes;
import java.util.List;

/** The sample shop's product pictures, drawn on request; needs no server at all. */
public final class SampleShopWiring implements Capability {
  @Override
  public List<RouteGroup> routes() {
    return List.of(new SampleImageRoutes());
  }
}
