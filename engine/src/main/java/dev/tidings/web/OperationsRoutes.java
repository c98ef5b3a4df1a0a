package dev.tidings.web;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code /metrics} (Prometheus text, for the API key or the metrics token only) and the OpenAPI
 * document; the dashboard is {@code web.dashboard}.
 */
final class OperationsRoutes implements RouteGroup {
  private final PrometheusMeterRegistry registry;
  private final byte[] openApi;
  private final OperatorAccess access;

  OperationsRoutes(PrometheusMeterRegistry registry, OperatorAccess access) {
    this.registry = registry;
    this.access = access;
    this.openApi = resource("/web/openapi.json");
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/metrics", (request, response) -> {
      switch (access.check(request, response)) {
        case ANSWERED -> {
          return;
        }
        case ANONYMOUS -> {
          ErrorMapping.send(
              response,
              ApiProblem.unauthorized("metrics need 'Authorization: Bearer <TIDINGS_API_KEY or"
                  + " TIDINGS_METRICS_TOKEN>'"));
          return;
        }
        case OPERATOR -> {}
      }
      response.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
      response.send(registry.scrape().getBytes(StandardCharsets.UTF_8));
    });
    routing.get(ApiKeyFilter.OPENAPI_PATH, (request, response) -> {
      response.header(HeaderNames.CONTENT_TYPE, "application/json; charset=UTF-8");
      response.send(openApi);
    });
  }

  private static byte[] resource(String name) {
    try (InputStream in = OperationsRoutes.class.getResourceAsStream(name)) {
      if (in == null)
        throw new IllegalStateException("missing resource " + name + " (a broken build?)");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
