package dev.tidings.web;

import dev.tidings.TidingsException;
import dev.tidings.config.Secret;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;

/**
 * Tidings' HTTP edge: every route group behind the same filters (access log and metrics, API key on
 * {@code /api/**}) and the same error mapping, on Helidon's virtual-thread-per-request server.
 */
public final class HttpServer implements AutoCloseable {
  private final WebServer server;

  private HttpServer(WebServer server) {
    this.server = server;
  }

  /** No server-wide body limit: each route enforces its own (JSON or import) and answers a JSON 413. */
  public record Options(int port, Secret apiKey, Duration shutdownGrace) {}

  public static HttpServer start(
      Options options,
      PrometheusMeterRegistry registry,
      List<DependencyCheck> checks,
      List<RouteGroup> groups) {
    HttpRouting.Builder routing = HttpRouting.builder();
    routing.addFilter(new AccessLogFilter(registry));
    routing.addFilter(new InputTextFilter(registry));
    routing.addFilter(new ApiKeyFilter(options.apiKey()));
    ErrorMapping.register(routing);
    new HealthRoutes(checks).register(routing);
    new OperationsRoutes(registry).register(routing);
    groups.forEach(group -> group.register(routing));
    routing.any((request, response) -> ErrorMapping.send(
        response,
        ApiProblem.notFound("no route for " + request.prologue().method().text() + " "
            + request.path().path())));
    WebServer server = WebServer.builder()
        .port(options.port())
        .shutdownGracePeriod(options.shutdownGrace())
        // a card is written as headers then a body larger than one segment: with Nagle on, its
        // last segment waits for the client's delayed ACK, 40 ms on every card
        .connectionOptions(socket -> socket.tcpNoDelay(true))
        .directHandlers(ServerErrors.handlers(registry))
        .routing(routing)
        .build();
    // Helidon logs a failed bind and returns a stopped server instead of throwing
    server.start();
    if (!server.isRunning()) {
      throw new TidingsException("cannot serve HTTP on port " + options.port()
          + ": the server did not start (most often the port is in use; the log above says why)");
    }
    return new HttpServer(server);
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.stop();
  }
}
