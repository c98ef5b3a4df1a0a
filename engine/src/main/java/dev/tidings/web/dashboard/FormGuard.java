package dev.tidings.web.dashboard;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Every form a signed-in person posts passes here, three locks deep: the session cookie is
 * SameSite=Strict (another site's request does not carry it), the browser's {@code Origin} must name
 * this site, and the form must carry the session's own token in {@value #FIELD}. Any one would stop
 * a cross-site post today; together they hold when one of them is weakened (an old browser, a proxy
 * that strips {@code Origin}, a subdomain that can set cookies).
 */
final class FormGuard {
  static final String FIELD = "_csrf";
  static final String REFUSED = "tidings_dashboard_forms_refused";

  /** Why a form was refused, the label of {@value #REFUSED}. */
  enum Reason {
    ORIGIN("origin"),
    TOKEN("token"),
    MALFORMED("malformed"),
    TOO_LARGE("too_large");

    final String label;

    Reason(String label) {
      this.label = label;
    }
  }

  private final Map<Reason, Counter> refused = new EnumMap<>(Reason.class);

  FormGuard(MeterRegistry metrics) {
    for (Reason reason : Reason.values())
      refused.put(
          reason,
          Counter.builder(REFUSED)
              .description("Dashboard forms refused: from another site, without the session's"
                  + " token, unreadable or too large")
              .tag("reason", reason.label)
              .register(metrics));
  }

  /**
   * The form's fields when it passes every lock; otherwise answers the request (403, 400 or 413 with
   * what went wrong) and returns empty.
   */
  Optional<FormFields.Fields> accept(
      ServerRequest request, ServerResponse response, Visitor visitor, int maxBytes) {
    if (!FormGuard.sameOrigin(request))
      return refuse(response, Reason.ORIGIN, 403, "This form was sent from another site.");
    return switch (FormFields.read(request, maxBytes)) {
      case FormFields.TooLarge large ->
        refuse(
            response,
            Reason.TOO_LARGE,
            413,
            "The form is larger than " + Html.count(large.limit() / 1024) + " KiB.");
      case FormFields.Malformed malformed ->
        refuse(
            response,
            Reason.MALFORMED,
            400,
            "The form could not be read (a broken escape in its fields).");
      case FormFields.Fields fields -> {
        if (!matches(visitor, fields.get(FIELD)))
          yield refuse(
              response,
              Reason.TOKEN,
              403,
              "This form is not from your session (it expired, or another page made it):"
                  + " go back, reload the page and send it again.");
        yield Optional.of(fields);
      }
    };
  }

  private static boolean matches(Visitor visitor, String given) {
    return visitor.formToken().isPresent()
        && !given.isEmpty()
        && MessageDigest.isEqual(
            given.getBytes(StandardCharsets.UTF_8),
            visitor.formToken().get().getBytes(StandardCharsets.UTF_8));
  }

  private Optional<FormFields.Fields> refuse(
      ServerResponse response, Reason reason, int status, String why) {
    Objects.requireNonNull(refused.get(reason)).increment();
    Html.send(
        response,
        status,
        Html.page(
            "Refused",
            Html.Section.NONE,
            Visitor.NOBODY,
            "<h1>Refused</h1><p role=\"alert\">" + Html.escape(why) + "</p>"));
    return Optional.empty();
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
      return host.isPresent() && sameOrigin(origin.get(), scheme(request), host.get());
    }
    var site = request.headers().first(HeaderNames.create("Sec-Fetch-Site"));
    return site.isEmpty() || site.get().equals("same-origin") || site.get().equals("none");
  }

  /**
   * The scheme this page was reached by: the one a reverse proxy in front names in {@code
   * X-Forwarded-Proto} (a browser cannot set that header on another site's form), else the node's own.
   */
  private static String scheme(ServerRequest request) {
    var forwarded = request.headers().first(HeaderNames.X_FORWARDED_PROTO);
    if (forwarded.isPresent()) {
      String first = forwarded.get().split(",", 2)[0].strip().toLowerCase(Locale.ROOT);
      if (first.equals("http") || first.equals("https")) return first;
    }
    return request.isSecure() ? "https" : "http";
  }

  /**
   * Whether {@code origin} (scheme, host and port, as a browser writes it) is the site at {@code
   * scheme://host}: all three must agree, a port left out being the scheme's default. An origin of
   * another scheme on the same host and port (a page on plain HTTP posting to the HTTPS dashboard) is
   * another site.
   */
  static boolean sameOrigin(String origin, String scheme, String host) {
    int separator = origin.indexOf("://");
    if (separator <= 0) return false;
    String originScheme = origin.substring(0, separator).toLowerCase(Locale.ROOT);
    if (!originScheme.equals(scheme)) return false;
    String authority = origin.substring(separator + 3);
    if (authority.isEmpty() || authority.contains("/") || authority.contains("@")) return false;
    return withPort(authority, scheme).equalsIgnoreCase(withPort(host.strip(), scheme));
  }

  /** {@code host[:port]} with the scheme's default port written out. */
  private static String withPort(String authority, String scheme) {
    int closingBracket = authority.lastIndexOf(']');
    int colon = authority.lastIndexOf(':');
    if (colon > closingBracket) return authority;
    return authority + (scheme.equals("https") ? ":443" : ":80");
  }
}
