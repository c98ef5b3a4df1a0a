package dev.tidings.web.campaign;

import dev.tidings.campaign.Unsubscribes;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /u/{token}}, the unsubscribe URL of every email (RFC 8058). GET shows a page with
 * one button and changes nothing: link scanners and previews fetch every URL in a message. POST (the
 * mail client's one-click {@code List-Unsubscribe=One-Click}, or the page's button) unsubscribes. A bad
 * token, or a failure behind it, gets the same neutral page with status 200: never an error a proxy
 * would keep, never a redirect.
 */
public final class UnsubscribeRoutes implements RouteGroup {
  private static final Logger log = LoggerFactory.getLogger(UnsubscribeRoutes.class);

  private final Unsubscribes unsubscribes;

  public UnsubscribeRoutes(Unsubscribes unsubscribes) {
    this.unsubscribes = unsubscribes;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/u/{token}", this::confirm);
    routing.post("/u/{token}", this::unsubscribe);
  }

  private void confirm(ServerRequest request, ServerResponse response) {
    String token = request.path().pathParameters().get("token");
    boolean known;
    try {
      known = unsubscribes.whom(token).isPresent();
    } catch (RuntimeException e) {
      log.warn("unsubscribe page shown neutral: {}", e.toString());
      known = false;
    }
    page(response, known ? Pages.CONFIRM : Pages.NEUTRAL);
  }

  private void unsubscribe(ServerRequest request, ServerResponse response) {
    String token = request.path().pathParameters().get("token");
    boolean done;
    try {
      done = unsubscribes.unsubscribe(token).isPresent();
    } catch (RuntimeException e) {
      log.warn("unsubscribe failed, answered neutral: {}", e.toString());
      done = false;
    }
    page(response, done ? Pages.DONE : Pages.NEUTRAL);
  }

  private static void page(ServerResponse response, String html) {
    response.header(HeaderNames.CONTENT_TYPE, "text/html; charset=UTF-8");
    response.header(HeaderNames.CACHE_CONTROL, "no-store, private");
    response.header("Referrer-Policy", "no-referrer");
    response.send(html.getBytes(StandardCharsets.UTF_8));
  }

  /** The three pages; none names the subscriber or the address, so a forwarded email reveals nothing. */
  static final class Pages {
    private static final String HEAD = "<!doctype html><html><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width\"><title>Unsubscribe</title></head>"
        + "<body style=\"font-family:sans-serif;max-width:32em;margin:3em auto\">";
    private static final String TAIL = "</body></html>";

    static final String CONFIRM = HEAD + "<h1>Unsubscribe?</h1>"
        + "<p>You will no longer receive these emails.</p>"
        + "<form method=\"post\"><input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">"
        + "<button type=\"submit\">Unsubscribe</button></form>" + TAIL;
    static final String DONE = HEAD
        + "<h1>You are unsubscribed</h1><p>You will no longer receive these emails.</p>" + TAIL;
    static final String NEUTRAL = HEAD + "<h1>Unsubscribe</h1>"
        + "<p>This link cannot be used any more. Nothing was changed.</p>" + TAIL;

    private Pages() {}
  }
}
