package dev.tidings.web;

import dev.tidings.TidingsException;
import dev.tidings.config.Secret;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Tidings' HTTP edge: every route group behind the same filters (access log and metrics, API key on
 * {@code /api/**}) and the same error mapping, on Helidon's virtual-thread-per-request server.
 */
public final class HttpServer implements AutoCloseable {
  private final WebServer server;
  private final List<RouteGroup> groups;

  private HttpServer(WebServer server, List<RouteGroup> groups) {
    this.server = server;
    this.groups = groups;
  }

  /**
   * No server-wide body limit: each route enforces its own (JSON or import) and answers a JSON 413.
   *
   * @param bind the address to listen on; empty: every interface
   * @param metricsToken a second credential for {@code /metrics} and {@code /health}'s details
   * @param throttle counts failed credentials per address; empty (benchmarks, tests): no limit
   */
  public record Options(
      int port,
      Secret apiKey,
      Duration shutdownGrace,
      Optional<InetAddress> bind,
      Optional<Secret> metricsToken,
      Optional<AuthThrottle> throttle) {
    public Options(int port, Secret apiKey, Duration shutdownGrace) {
      this(port, apiKey, shutdownGrace, Optional.empty(), Optional.empty(), Optional.empty());
    }
  }

  public static HttpServer start(
      Options options,
      PrometheusMeterRegistry registry,
      List<DependencyCheck> checks,
      List<RouteGroup> groups) {
    HttpRouting.Builder routing = HttpRouting.builder();
    routing.addFilter(new FramingFilter(registry));
    routing.addFilter(new AccessLogFilter(registry));
    routing.addFilter(new InputTextFilter(registry));
    routing.addFilter(new ApiKeyFilter(options.apiKey(), options.throttle()));
    ErrorMapping.register(routing);
    var access = new OperatorAccess(options.apiKey(), options.metricsToken(), options.throttle());
    new HealthRoutes(checks, access).register(routing);
    new OperationsRoutes(registry, access).register(routing);
    groups.forEach(group -> group.register(routing));
    routing.any((request, response) -> ErrorMapping.send(
        response,
        ApiProblem.notFound("no route for " + request.prologue().method().text() + " "
            + request.path().path())));
    var builder = WebServer.builder();
    options.bind().ifPresent(builder::address);
    WebServer server = builder
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
          + options.bind().map(address -> " of " + address.getHostAddress()).orElse("")
          + ": the server did not start (most often the port is in use; the log above says why)");
    }
    return new HttpServer(server, List.copyOf(groups));
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    groups.forEach(RouteGroup::stopping);
    server.stop();
  }
}
