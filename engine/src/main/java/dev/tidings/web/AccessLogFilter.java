package dev.tidings.web;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One access-log line and one timer sample per request, tagged by route pattern (not raw path). */
final class AccessLogFilter implements Filter {
  private static final Logger access = LoggerFactory.getLogger("tidings.access");
  private final MeterRegistry registry;

  AccessLogFilter(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
    long start = System.nanoTime();
    try {
      chain.proceed();
    } finally {
      long nanos = System.nanoTime() - start;
      int status = response.status().code();
      String method = request.prologue().method().text();
      // a path no route matched (a 404, or an answer a filter gave before routing) is never a
      // label: its text comes from the client and has no bound
      String route = request.matchingPattern().orElse("unmatched");
      Timer.builder("http.server.requests")
          .tag("method", method)
          .tag("route", route)
          .tag("status", Integer.toString(status))
          .register(registry)
          .record(nanos, TimeUnit.NANOSECONDS);
      if (access.isInfoEnabled()) {
        // as the client wrote it, percent-encoded: a decoded %0A would start a forged line
        String path = request.path().rawPath();
        long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
        String peer = request.remotePeer().host();
        String requestId = response.headers().first(FramingFilter.REQUEST_ID).orElse("-");
        // key-value pairs become fields of their own in JSON logs,
        // for log queries by status or route
        access
            .atInfo()
            .addKeyValue("method", method)
            .addKeyValue("path", path)
            .addKeyValue("route", route)
            .addKeyValue("status", status)
            .addKeyValue("bytes", response.bytesWritten())
            .addKeyValue("millis", millis)
            .addKeyValue("peer", peer)
            .addKeyValue("request_id", requestId)
            .log(
                "{} {} {} {}B {}ms {} {}",
                method,
                path,
                status,
                response.bytesWritten(),
                millis,
                peer,
                requestId);
      }
    }
  }
}
