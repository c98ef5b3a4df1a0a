package dev.tidings.web.dashboard;

import dev.tidings.config.Secret;
import dev.tidings.web.AuthThrottle;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sign-in with the API key: a form that, given the key, sets the session cookie. Both forms (sign in,
 * sign out) refuse a request another site made: the browser's {@code Origin} (or {@code
 * Sec-Fetch-Site}) must name this site. With the SameSite=Strict cookie that closes CSRF, including
 * signing a victim into the attacker's node.
 *
 * <p>Wrong keys are counted per client address and per key by the {@link AuthThrottle} (kind {@code
 * sign_in}): past its limit a wrong key gets 429 with {@code Retry-After}; the right key always signs in. Signing out records the session in
 * {@link SessionSignOuts}; each page request asks there, remembering a session found still signed in
 * for {@link #RECHECK} on this node, so a sign-out on another node takes effect here within that
 * time, and one on this node at once.
 */
final class SignIn {
  private static final int MAX_FORM_BYTES = 4096;
  static final Duration RECHECK = Duration.ofSeconds(5);
  private static final int MAX_REMEMBERED = 10_000;

  private final Secret apiKey;
  private final SessionCookie cookie;
  private final SessionSignOuts signOuts;
  private final Optional<AuthThrottle> throttle;
  private final InstantSource clock;
  private final ConcurrentHashMap<String, Instant> stillSignedInUntil = new ConcurrentHashMap<>();

  SignIn(
      Secret apiKey,
      SessionCookie cookie,
      SessionSignOuts signOuts,
      Optional<AuthThrottle> throttle,
      InstantSource clock) {
    this.apiKey = apiKey;
    this.cookie = cookie;
    this.signOuts = signOuts;
    this.throttle = throttle;
    this.clock = clock;
  }

  boolean signedIn(ServerRequest request) {
    return visitor(request).isPresent();
  }

  /** The person signed in on this request (with their forms' token), if anyone is. */
  Optional<Visitor> visitor(ServerRequest request) {
    return session(request)
        .filter(session -> !signedOut(session.id()))
        .map(session -> Visitor.signedIn(cookie.formToken(session)));
  }

  private Optional<SessionCookie.Session> session(ServerRequest request) {
    return cookie.session(request.headers().cookies().first(SessionCookie.NAME).asOptional());
  }

  private boolean signedOut(String sessionId) {
    Instant now = clock.instant();
    Instant until = stillSignedInUntil.get(sessionId);
    if (until != null && until.isAfter(now)) return false;
    if (signOuts.signedOut(sessionId)) {
      stillSignedInUntil.remove(sessionId);
      return true;
    }
    if (stillSignedInUntil.size() >= MAX_REMEMBERED)
      stillSignedInUntil.entrySet().removeIf(entry -> !entry.getValue().isAfter(now));
    if (stillSignedInUntil.size() < MAX_REMEMBERED)
      stillSignedInUntil.put(sessionId, now.plus(RECHECK));
    return false;
  }

  /** Sends a browser that is not signed in to the form, remembering where it wanted to go. */
  void toForm(ServerRequest request, ServerResponse response) {
    String target = request.path().path()
        + (request.query().isEmpty() ? "" : "?" + request.query().rawValue());
    redirect(response, "/signin?next=" + URLEncoder.encode(target, StandardCharsets.UTF_8));
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
    if (!(FormFields.read(request, MAX_FORM_BYTES) instanceof FormFields.Fields fields)) {
      Html.send(
          response,
          400,
          page("/", Optional.of("The form could not be read (a broken escape in its fields).")));
      return;
    }
    Map<String, String> form = fields.values();
    String next = safeNext(Optional.ofNullable(form.get("next")));
    String key = form.getOrDefault("key", "").trim();
    if (key.isEmpty()) {
      Html.send(response, 401, page(next, Optional.of("Enter the API key.")));
      return;
    }
    if (!apiKey.matches(key)) {
      var wait = throttle.flatMap(t -> t.failed(AuthThrottle.Kind.SIGN_IN, request, key));
      if (wait.isPresent()) {
        tooMany(response, next, wait.get());
        return;
      }
      Html.send(response, 401, page(next, Optional.of("That is not this node's API key.")));
      return;
    }
    response.header(HeaderNames.SET_COOKIE, cookie.issue());
    redirect(response, next);
  }

  /** A form posted from another site is refused (403) whatever it holds: true when it was. */
  static boolean refusedFromElsewhere(ServerRequest request, ServerResponse response) {
    if (FormGuard.sameOrigin(request)) return false;
    Html.send(
        response,
        403,
        Html.page(
            "Refused",
            Html.Section.NONE,
            Visitor.NOBODY,
            "<h1>Refused</h1><p role=\"alert\">This form was sent from another site.</p>"));
    return true;
  }

  /** Signs out; a signed-in session's form must carry its token, as every other form. */
  void signOut(ServerRequest request, ServerResponse response, FormGuard guard) {
    var visitor = visitor(request);
    if (visitor.isPresent()) {
      if (guard.accept(request, response, visitor.get(), MAX_FORM_BYTES).isEmpty()) return;
    } else if (refusedFromElsewhere(request, response)) return;
    session(request).ifPresent(session -> {
      signOuts.signOut(session.id(), session.expires());
      stillSignedInUntil.remove(session.id());
    });
    response.header(HeaderNames.SET_COOKIE, cookie.clear());
    redirect(response, "/signin");
  }

  /** Too many wrong keys from this address: the form again, with how long to wait. */
  private static void tooMany(ServerResponse response, String next, Duration wait) {
    long seconds = AuthThrottle.seconds(wait);
    response.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
    Html.send(
        response,
        429,
        page(
            next,
            Optional.of("Too many wrong keys from this address: try again in " + seconds + " s.")));
  }

  /** The form ({@code signin} template), with what went wrong when something did. */
  record Form(String next, List<String> problem) {}

  static String page(String next, Optional<String> problem) {
    return Html.page(
        "Sign in",
        Html.Section.NONE,
        Visitor.NOBODY,
        Templates.render("signin", new Form(next, problem.stream().toList())));
  }

  /**
   * Only a path on this site: an open redirect would let a link send a signed-in user anywhere. And only
   * visible ASCII, since it becomes a {@code Location} header, which cannot carry DEL or anything beyond
   * ASCII (a browser sends such a path percent-encoded).
   */
  static String safeNext(Optional<String> next) {
    if (next.isEmpty()) return "/";
    String path = next.get();
    if (!path.startsWith("/")
        || path.startsWith("//")
        || path.startsWith("/\\")
        || path.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) return "/";
    return path;
  }

  private static void redirect(ServerResponse response, String location) {
    response.status(Status.SEE_OTHER_303);
    response.header(HeaderNames.LOCATION, location);
    response.send();
  }
}
