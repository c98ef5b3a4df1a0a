package dev.tidings.web;

import dev.tidings.config.Secret;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.Optional;

/**
 * Requires {@code Authorization: Bearer <TIDINGS_API_KEY>} on {@code /api/**}. The OpenAPI document
 * stays public: it describes the API, it grants nothing. Email-facing routes never pass here. Wrong
 * keys are counted per address and per key offered by the {@link AuthThrottle}, when there is one;
 * the right key is never throttled.
 */
final class ApiKeyFilter implements Filter {
  static final String OPENAPI_PATH = "/api/v1/openapi.json";
  private final Secret apiKey;
  private final Optional<AuthThrottle> throttle;

  ApiKeyFilter(Secret apiKey, Optional<AuthThrottle> throttle) {
    this.apiKey = apiKey;
    this.throttle = throttle;
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
    String path = request.path().path();
    if (!path.startsWith("/api/") || path.equals(OPENAPI_PATH)) {
      chain.proceed();
      return;
    }
    var header = request.headers().first(HeaderNames.AUTHORIZATION);
    if (header.isEmpty()) {
      ErrorMapping.send(
          response,
          ApiProblem.unauthorized(
              "an API key is required: send 'Authorization: Bearer <TIDINGS_API_KEY>'"));
      return;
    }
    String value = header.get();
    String offered =
        value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7).trim() : "";
    // the key is checked before the throttle: a right key is never refused, only failures wait
    if (offered.isEmpty() || !apiKey.matches(offered)) {
      var wait = throttle.flatMap(t -> t.failed(AuthThrottle.Kind.API_KEY, request, value));
      if (wait.isPresent()) {
        AuthThrottle.tooMany(response, wait.get());
      } else {
        ErrorMapping.send(response, ApiProblem.unauthorized("the API key is not valid"));
      }
      return;
    }
    chain.proceed();
  }
}
