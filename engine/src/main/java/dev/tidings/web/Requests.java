package dev.tidings.web;

import dev.tidings.PageLimit;
import io.helidon.webserver.http.ServerRequest;
import java.util.Optional;

/** Query and path parameters, checked at the edge with messages that say what is wrong. */
public final class Requests {
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = PageLimit.MAX;

  private Requests() {}

  public static String path(ServerRequest request, String name) {
    return request.path().pathParameters().get(name);
  }

  /** The campaign id in the path ({@code {id}}); a 400 saying so when it is not one. */
  public static long campaignId(ServerRequest request) {
    return campaignId(path(request, "id"));
  }

  public static long campaignId(String text) {
    try {
      long id = Long.parseLong(text);
      if (id >= 1) return id;
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    throw ApiProblem.badRequest("a campaign id is a whole number >= 1, got '"
        + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'");
  }

  public static Optional<String> query(ServerRequest request, String name) {
    var value = request.query().first(name);
    return value.isPresent() && !value.get().isBlank()
        ? Optional.of(value.get())
        : Optional.empty();
  }

  /** {@code ?limit=} within 1..1000, 100 when absent. */
  public static int limit(ServerRequest request) {
    var raw = query(request, "limit");
    if (raw.isEmpty()) return DEFAULT_LIMIT;
    try {
      int limit = Integer.parseInt(raw.get());
      if (limit < 1 || limit > MAX_LIMIT)
        throw ApiProblem.badRequest(
            "limit must be between 1 and " + MAX_LIMIT + " but was " + limit);
      return limit;
    } catch (NumberFormatException e) {
      throw ApiProblem.badRequest("limit must be a whole number but was '" + raw.get() + "'");
    }
  }
}
