package dev.tidings.web;

import io.helidon.webserver.http.HttpRouting;

/** A set of routes one capability exposes; the server registers each group in order. */
@FunctionalInterface
public interface RouteGroup {
  void register(HttpRouting.Builder routing);
}
