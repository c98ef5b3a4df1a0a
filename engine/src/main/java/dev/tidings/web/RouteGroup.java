package dev.tidings.web;

import io.helidon.webserver.http.HttpRouting;

/** A set of routes one capability exposes; the server registers each group in order. */
@FunctionalInterface
public interface RouteGroup {
  void register(HttpRouting.Builder routing);

  /**
   * The server is stopping: requests that would otherwise run until the end of the grace period (a
   * live stream a page holds open) should end now. Requests in progress still finish.
   */
  default void stopping() {}
}
