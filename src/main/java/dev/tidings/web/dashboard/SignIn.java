package dev.tidings.web.dashboard;

import dev.tidings.config.Secret;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sign-in with the API key: a form that, given the key, sets the session cookie. Both forms (sign in,
 * sign out) refuse a request another site made: the browser's {@code Origin} (or {@code
 * Sec-Fetch-Site}) must name this site. With the SameSite=Strict cookie that closes CSRF, including
 * signing a victim into the attacker's node.
 */
final class SignIn {
  private static final int MAX_FORM_BYTES = 4096;

  private final Secret apiKey;
  private final SessionCookie cookie;

  SignIn(Secret apiKey, SessionCookie cookie) {
    this.apiKey = apiKey;
    this.cookie = cookie;
  }

  boolean signedIn(ServerRequest request) {
    return cookie.valid(request.headers().cookies().first(SessionCookie.NAME).asOptional());
  }

  /** Sends a browser that is not signed in to the form, remembering where it wanted to go. */
  void toForm(ServerRequest request, ServerResponse response) {
    String target = request.path().path()
        + (request.query().isEmpty() ? "" : "?" + request.query().rawValue());
    redirect(
        response, "/signin?next=" + java.net.URLEncoder.encode(target, StandardCharsets.UTF_8));
  }

  void form(ServerRequest request, ServerResponse response) {
    String next = safeNext(request.query().first("next").asOptional());
    if (signedIn(request)) {
      redirect(response, next);
      return;
    }
    Html.send(response, 200, page(next, Optional.empty()));
  }

  void submit(ServerRequest request, ServerResponse response) {
    if (refusedFromElsewhere(request, response)) return;
    Map<String, String> form = form(request);
    String next = safeNext(Optional.ofNullable(form.get("next")));
    String key = form.getOrDefault("key", "").trim();
    if (key.isEmpty() || !apiKey.matches(key)) {
      Html.send(
          response,
          401,
          page(
              next,
              Optional.of(
                  key.isEmpty() ? "Enter the API key." : "That is not this node's API key.")));
      return;
    }
    response.header(HeaderNames.SET_COOKIE, cookie.issue());
    redirect(response, next);
  }

  /** A form posted from another site is refused (403) whatever it holds: true when it was. */
  private boolean refusedFromElsewhere(ServerRequest request, ServerResponse response) {
    if (sameOrigin(request)) return false;
    Html.send(
        response,
        403,
        Html.page(
            "Refused",
            Html.Section.NONE,
            false,
            "<h1>Refused</h1><p role=\"alert\">This form was sent from another site.</p>"));
    return true;
  }

  void signOut(ServerRequest request, ServerResponse response) {
    if (refusedFromElsewhere(request, response)) return;
    response.header(HeaderNames.SET_COOKIE, cookie.clear());
    redirect(response, "/signin");
  }

  private static String page(String next, Optional<String> problem) {
    var body = new StringBuilder("<div class=\"signin card\"><h1>Sign in</h1>"
        + "<p>Enter this node's API key: <code>TIDINGS_API_KEY</code>, or the file"
        + " <code>data/api-key</code> that <code>tidings demo</code> wrote.</p>");
    problem.ifPresent(p -> body.append("<p role=\"alert\" class=\"problem\" id=\"problem\">")
        .append(Html.escape(p))
        .append("</p>"));
    body.append(
            "<form method=\"post\" action=\"/signin\"><input type=\"hidden\" name=\"next\" value=\"")
        .append(Html.escape(next))
        .append(
            "\"><label for=\"key\">API key</label><input id=\"key\" name=\"key\" type=\"password\""
                + " autocomplete=\"current-password\" required autofocus")
        .append(problem.isPresent() ? " aria-invalid=\"true\" aria-describedby=\"problem\"" : "")
        .append("><button type=\"submit\">Sign in</button></form></div>");
    return Html.page("Sign in", Html.Section.NONE, false, body.toString());
  }

  /** Only a path on this site: an open redirect would let a link send a signed-in user anywhere. */
  static String safeNext(Optional<String> next) {
    if (next.isEmpty()) return "/";
    String path = next.get();
    if (!path.startsWith("/")
        || path.startsWith("//")
        || path.startsWith("/\\")
        || path.chars().anyMatch(c -> c < 0x20)) return "/";
    return path;
  }

  /**
   * Whether a browser sent this from our own page. Browsers send {@code Origin} on every POST (and
   * {@code Sec-Fetch-Site} too); a client that sends neither is no browser and holds no victim's
   * cookie.
   */
  static boolean sameOrigin(ServerRequest request) {
    var host = request.headers().first(HeaderNames.HOST);
    var origin = request.headers().first(HeaderNames.ORIGIN);
    if (origin.isPresent()) {
      String value = origin.get();
      int scheme = value.indexOf("://");
      return host.isPresent()
          && scheme > 0
          && value.substring(scheme + 3).equalsIgnoreCase(host.get());
    }
    var site = request.headers().first(HeaderNames.create("Sec-Fetch-Site"));
    return site.isEmpty() || site.get().equals("same-origin") || site.get().equals("none");
  }

  private static Map<String, String> form(ServerRequest request) {
    byte[] bytes;
    try (InputStream in = request.content().inputStream()) {
      bytes = in.readNBytes(MAX_FORM_BYTES + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> fields = new HashMap<>();
    if (bytes.length > MAX_FORM_BYTES) return fields;
    for (String pair : new String(bytes, StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) continue;
      fields.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return fields;
  }

  private static void redirect(ServerResponse response, String location) {
    response.status(Status.SEE_OTHER_303);
    response.header(HeaderNames.LOCATION, location);
    response.send();
  }
}
