package dev.tidings.web.dashboard;

import dev.tidings.journeys.JourneyStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/** The journey a page's path names ({@code /journeys/{id}/...}), and the page for none. */
final class JourneyPath {
  private JourneyPath() {}

  /** The id in the path; empty for what is no journey id (a word, zero, a negative number). */
  static Optional<Long> id(ServerRequest request) {
    String text = request.path().pathParameters().first("id").orElse("");
    if (!text.matches("[1-9][0-9]{0,17}")) return Optional.empty();
    return Optional.of(Long.parseLong(text));
  }

  /** The latest version of the journey the path names. */
  static Optional<JourneyStore.Saved> latest(ServerRequest request, JourneyStore store) {
    return id(request).flatMap(store::latest);
  }

  static void notFound(ServerResponse response, Visitor visitor) {
    Html.send(
        response,
        404,
        Html.page(
            "Not found",
            Html.Section.JOURNEYS,
            visitor,
            "<h1>Not found</h1><p>No such journey. <a href=\"/journeys\">All journeys</a>.</p>"));
  }
}
