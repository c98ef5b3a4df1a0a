package dev.tidings.web;

import dev.tidings.config.Secret;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Requires {@code Authorization: Bearer <TIDINGS_API_KEY>} on {@code /api/**}. The OpenAPI document
 * stays public: it describes the API, it grants nothing. Email-facing routes never pass here.
 */
final class ApiKeyFilter implements Filter {
  static final String OPENAPI_PATH = "/api/v1/openapi.json";
  private final Secret apiKey;

  ApiKeyFilter(Secret apiKey) {
    this.apiKey = apiKey;
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
    if (!value.regionMatches(true, 0, "Bearer ", 0, 7)
        || !apiKey.matches(value.substring(7).trim())) {
      ErrorMapping.send(response, ApiProblem.unauthorized("the API key is not valid"));
      return;
    }
    chain.proceed();
  }
}
