package dev.tidings.web;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Every answer says {@code X-Content-Type-Options: nosniff}: many quote the request (a 404 names its
 * path, a 422 the value it refused), and a browser must read each as the type it declares, never sniff
 * a JSON error into HTML.
 */
final class NoSniffFilter implements Filter {
  static final String NOSNIFF = "nosniff";

  @Override
  public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
    response.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, NOSNIFF);
    chain.proceed();
  }
}
