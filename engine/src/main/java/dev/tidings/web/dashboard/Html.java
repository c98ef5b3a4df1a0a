package dev.tidings.web.dashboard;

import dev.tidings.HtmlText;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.text.NumberFormat;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Escaping, number formats and the page shell every dashboard page shares. */
final class Html {
  private Html() {}

  static String count(long n) {
    return NumberFormat.getIntegerInstance(Locale.ENGLISH).format(n);
  }

  /** An instant as operators read it in logs: UTC, to the second. */
  static String time(Instant instant) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
        .withZone(ZoneOffset.UTC)
        .format(instant);
  }

  /** An instant on a page a person reads: in their zone, to the second, the zone named. */
  static String time(Instant instant, ZoneId zone) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(zone).format(instant) + " "
        + ScheduleTime.name(zone);
  }

  /** A duration as people read it: "42 s", "7 min", "3 h 5 min", "2 d 4 h". */
  static String duration(Duration duration) {
    long seconds = Math.max(0, duration.toSeconds());
    if (seconds < 120) return seconds + " s";
    long minutes = seconds / 60;
    if (minutes < 120) return minutes + " min";
    long hours = minutes / 60;
    if (hours < 48) return hours + " h " + minutes % 60 + " min";
    return hours / 24 + " d " + hours % 24 + " h";
  }

  static String percent(double ratio) {
    return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
  }

  /** Which section of the navigation a page belongs to, so that its link is marked current. */
  enum Section {
    CAMPAIGNS("/", "Campaigns"),
    JOURNEYS("/journeys", "Journeys"),
    SUBSCRIBERS("/subscribers", "Subscribers"),
    EXPLORER("/explorer", "Recommendations"),
    SYSTEM("/system", "System"),
    NONE("", "");

    final String path;
    final String label;

    Section(String path, String label) {
      this.path = path;
      this.label = label;
    }
  }

  /**
   * A whole page: the shell, its navigation (and sign-out form when signed in) around {@code body}.
   * Pages render their tables here on the server; the script only makes them move.
   */
  static String page(String title, Section section, Visitor visitor, String body) {
    var sections = Arrays.stream(Section.values())
        .filter(s -> s != Section.NONE)
        .map(s -> new NavLink(s.path, s.label, s == section))
        .toList();
    return Templates.render(
        "page", new Shell(title, visitor.isSignedIn(), visitor.token(), sections, body));
  }

  /** The shell around a page's body ({@code page} template); the body is already HTML. */
  record Shell(String title, boolean signedIn, String csrf, List<NavLink> sections, String body) {}

  /** What the {@code notfound} template says is not there. */
  record NotFound(String what) {}

  /** Sends the browser on to {@code location} after a form did its work (post, redirect, get). */
  static void redirect(ServerResponse response, String location) {
    response.status(303);
    response.header(HeaderNames.LOCATION, location);
    response.send();
  }

  /** A value made safe for a URL's query. */
  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** Text made safe to place in HTML, for the few messages a page writes without a template. */
  static String escape(String text) {
    return HtmlText.escape(text);
  }

  record NavLink(String path, String label, boolean current) {}

  static void send(ServerResponse response, int status, String html) {
    response.status(status);
    response.header(HeaderNames.CONTENT_TYPE, "text/html; charset=UTF-8");
    response.header(HeaderNames.CACHE_CONTROL, "no-store");
    // the pages load only their own script and style; nothing may frame them.
    // Inline style attributes are allowed: the bars' widths are rendered on the server
    // so they show without script
    response.header(
        "Content-Security-Policy",
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: http: https:; frame-ancestors 'none'");
    response.header("X-Content-Type-Options", "nosniff");
    response.header("Referrer-Policy", "same-origin");
    response.send(html.getBytes(StandardCharsets.UTF_8));
  }
}
