package dev.tidings.web;

import dev.tidings.StoredText;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Refuses, before any route sees it, a request whose decoded path or query holds text PostgreSQL cannot
 * store ({@code %00}, a lone surrogate): a 400 naming the part, where otherwise an id or a cursor with a NUL
 * reached a query and failed it (a 500). Every path and query parameter of every route passes here.
 */
final class InputTextFilter implements Filter {
  private final MeterRegistry registry;

  InputTextFilter(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
    String problem;
    try {
      problem = problem(request);
    } catch (IllegalArgumentException undecodable) {
      problem = "the request URI cannot be decoded: " + undecodable.getMessage();
    }
    if (problem != null) {
      registry.counter("tidings_http_refused_input_total", "part", "uri").increment();
      ErrorMapping.send(response, ApiProblem.badRequest(problem));
      return;
    }
    chain.proceed();
  }

  private static @Nullable String problem(RoutingRequest request) {
    String why = StoredText.problem(request.path().path());
    if (why != null) return "the request path " + why;
    var query = request.query();
    for (String name : query.names()) {
      why = StoredText.problem(name);
      if (why != null) return "a query parameter name " + why;
      for (String value : query.all(name)) {
        why = StoredText.problem(value);
        if (why != null) return "query parameter '" + name + "' " + why;
      }
    }
    return null;
  }
}
