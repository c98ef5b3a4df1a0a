package dev.tidings.web.dashboard;

import io.helidon.webserver.http.ServerRequest;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The time zone a person reads the dashboard's times in, kept in a cookie of its own: the page's script
 * sets it from the browser's zone the first time, and scheduling in a zone chosen on the form makes
 * that one theirs. A cookie that names no zone (tampered, or a zone this JVM does not know) reads as
 * UTC, which every time then names.
 */
final class ViewerZone {
  static final String COOKIE = "tidings_zone";

  /** A year: the zone is a preference, not a session. */
  private static final long MAX_AGE_SECONDS = 365L * 24 * 3600;

  private ViewerZone() {}

  static ZoneId of(ServerRequest request) {
    return request
        .headers()
        .cookies()
        .first(COOKIE)
        .asOptional()
        .flatMap(ViewerZone::decoded)
        .flatMap(ScheduleTime::zone)
        .orElse(ZoneOffset.UTC);
  }

  /** The {@code Set-Cookie} value that keeps {@code zone} as the person's. */
  static String cookie(ZoneId zone, boolean secure) {
    return COOKIE + "=" + URLEncoder.encode(zone.getId(), StandardCharsets.UTF_8)
        + "; Path=/; Max-Age=" + MAX_AGE_SECONDS + "; SameSite=Lax" + (secure ? "; Secure" : "");
  }

  private static Optional<String> decoded(String value) {
    if (value.length() > 3 * ScheduleTime.MAX_ZONE) return Optional.empty();
    try {
      return Optional.of(URLDecoder.decode(value, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException badEscape) {
      return Optional.empty();
    }
  }
}
