package dev.tidings.web;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Keeps HTTP/1 framing honest when a route answers without reading the request's body: the next request
 * on a kept-alive connection starts where this body ends, never inside it.
 *
 * <p>Two cases would otherwise let a body be parsed as the next request. A request that said {@code
 * Expect: 100-continue} and was answered before the node asked for its body (a 401, a 403, {@code
 * /health}): the node cannot know whether the client will still send the body (it may, and an attacker
 * does), so the answer says {@code Connection: close} and the connection ends. And an answer that says
 * {@code Connection: close} itself (a 413 from the declared length): the server would skip the unread
 * body and read on. An unread body larger than {@link #DRAIN_LIMIT}, or chunked, also ends the
 * connection rather than being read to its end for nothing; a smaller one is drained as before.
 */
final class UnreadBodyFilter implements Filter {
  /** The most of an unread body drained to keep the connection; past it, closing is cheaper. */
  static final long DRAIN_LIMIT = 64 * 1024;

  /** Why a connection was closed after its answer; the metric's label. */
  enum Reason {
    AWAITING_CONTINUE,
    TOO_LARGE_TO_DRAIN,
    ANSWER_CLOSES;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Counter[] closed = new Counter[Reason.values().length];

  UnreadBodyFilter(MeterRegistry registry) {
    for (Reason reason : Reason.values()) {
      closed[reason.ordinal()] = Counter.builder("tidings_http_connections_closed")
          .description("Connections closed after an answer so that an unread body is never read as"
              + " the next request, by why")
          .tag("reason", reason.label())
          .register(registry);
    }
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
    if (!hasBody(request.headers())) {
      chain.proceed();
      return;
    }
    response.beforeSend(() -> {
      if (unreadReason(request) != null) response.header(HeaderValues.CONNECTION_CLOSE);
    });
    chain.proceed();
    Reason reason = unreadReason(request);
    if (reason == null && response.headers().containsToken(HeaderValues.CONNECTION_CLOSE))
      reason = Reason.ANSWER_CLOSES;
    if (reason != null) {
      closed[reason.ordinal()].increment();
      // the answer is written; this ends the connection before its next request is read
      throw new CloseConnectionException("the request's body was not read: connection closed");
    }
  }

  /** Why the connection cannot be kept once answered, or null when it can. */
  private static @Nullable Reason unreadReason(RoutingRequest request) {
    if (request.content().consumed()) return null;
    ServerRequestHeaders headers = request.headers();
    if (headers.containsToken(HeaderValues.EXPECT_100) && !request.continueSent())
      return Reason.AWAITING_CONTINUE;
    if (headers.contains(HeaderNames.TRANSFER_ENCODING)) return Reason.TOO_LARGE_TO_DRAIN;
    return declaredLength(headers) > DRAIN_LIMIT ? Reason.TOO_LARGE_TO_DRAIN : null;
  }

  private static boolean hasBody(ServerRequestHeaders headers) {
    return headers.contains(HeaderNames.TRANSFER_ENCODING) || declaredLength(headers) > 0;
  }

  private static long declaredLength(ServerRequestHeaders headers) {
    try {
      return headers.contentLength().orElse(0);
    } catch (IllegalArgumentException unreadable) {
      // the server refuses an unreadable length before routing; treat it as a body to be safe
      return Long.MAX_VALUE;
    }
  }
}
