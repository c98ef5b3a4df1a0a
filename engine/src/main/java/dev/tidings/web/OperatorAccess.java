package dev.tidings.web;

import dev.tidings.config.Secret;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/**
 * Whether a request may see what operators see ({@code /health}'s details, {@code /metrics}): the API
 * key, or the metrics token a scraper can hold without being able to call the API, as a Bearer
 * credential. A wrong one is refused and counted like a wrong API key.
 */
final class OperatorAccess {
  enum Verdict {
    /** No credential offered. */
    ANONYMOUS,
    OPERATOR,
    /** A wrong credential: the 401 or 429 has been sent. */
    ANSWERED
  }

  private final Secret apiKey;
  private final Optional<Secret> metricsToken;
  private final Optional<AuthThrottle> throttle;

  OperatorAccess(Secret apiKey, Optional<Secret> metricsToken, Optional<AuthThrottle> throttle) {
    this.apiKey = apiKey;
    this.metricsToken = metricsToken;
    this.throttle = throttle;
  }

  Verdict check(ServerRequest request, ServerResponse response) {
    var header = request.headers().first(HeaderNames.AUTHORIZATION);
    if (header.isEmpty()) return Verdict.ANONYMOUS;
    String value = header.get();
    String offered =
        value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7).trim() : "";
    boolean token = metricsToken.isPresent() && metricsToken.get().matches(offered);
    if (apiKey.matches(offered) || token) return Verdict.OPERATOR;
    var wait = throttle.flatMap(t -> t.failed(AuthThrottle.Kind.METRICS, request, value));
    if (wait.isPresent()) {
      AuthThrottle.tooMany(response, wait.get());
    } else {
      ErrorMapping.send(
          response, ApiProblem.unauthorized("the API key or the metrics token is not valid"));
    }
    return Verdict.ANSWERED;
  }
}
