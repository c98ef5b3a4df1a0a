package dev.tidings.web.dashboard;

import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Makes a route's handler of a page: the page runs for someone signed in, and anyone else is sent to
 * the sign-in form. The page groups (the editor, the controls, the subscribers) register their routes
 * with it, so that only {@link DashboardRoutes} knows how a session is checked.
 */
@FunctionalInterface
interface Pages {
  Handler page(PageHandler handler);

  /** What a page answers, knowing who asked. */
  @FunctionalInterface
  interface PageHandler {
    void handle(ServerRequest request, ServerResponse response, Visitor visitor);
  }
}
