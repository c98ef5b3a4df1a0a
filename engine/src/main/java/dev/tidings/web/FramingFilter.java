package dev.tidings.web;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.Method;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Every answer framed so that a kept-alive client reads it whole and alone, and the headers every answer
 * carries (routed or refused before routing: {@link ServerErrors} uses the same).
 *
 * <p>Framing. A route that answers without reading the request's body must not leave that body to be
 * parsed as the next request. A request that said {@code Expect: 100-continue} and was answered before
 * the node asked for its body (a 401, a 403, {@code /health}): the node cannot know whether the client
 * will still send the body (it may, and an attacker does), so the answer says {@code Connection: close}
 * and the connection ends. So does an answer that says {@code Connection: close} itself (a 413 from the
 * declared length), since the server would skip the unread body and read on. An unread body larger than
 * {@link #DRAIN_LIMIT}, or chunked, also ends the connection rather than being read to its end for
 * nothing; a smaller one is drained as before. And no answer to {@code HEAD} has a body, whatever the
 * route or the error mapping wrote: a kept-alive client would read it as the start of its next answer.
 *
 * <p>Headers:
 *
 * <ul>
 *   <li>{@code X-Content-Type-Options: nosniff}: many answers quote the request (a 404 names its path,
 *       a 422 the value it refused), and a browser must read each as the type it declares, never sniff
 *       a JSON error into HTML.
 *   <li>{@code X-Request-Id}: the client's own, when it sent a short plain one (a proxy's or a load
 *       balancer's), else one made here; it is in the access log line too, so an answer, a proxy's log
 *       and the node's log name the same request, and a client can tell which request an answer is for.
 * </ul>
 */
final class FramingFilter implements Filter {
  /** The most of an unread body drained to keep the connection; past it, closing is cheaper. */
  static final long DRAIN_LIMIT = 64 * 1024;

  static final String NOSNIFF = "nosniff";
  static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

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

  FramingFilter(MeterRegistry registry) {
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
    response.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, NOSNIFF);
    response.header(REQUEST_ID, requestId(request.headers()));
    if (Method.HEAD.equals(request.prologue().method()))
      response.streamFilter(answer -> new NoBody(answer, response));
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

  /** The request's id: the client's when it is short and plain (it is echoed and logged), else a new one. */
  static String requestId(Headers headers) {
    var given = headers.first(REQUEST_ID);
    if (given.isPresent() && PLAIN_ID.matcher(given.get()).matches()) return given.get();
    byte[] random = new byte[8];
    ThreadLocalRandom.current().nextBytes(random);
    return HexFormat.of().formatHex(random);
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

  /**
   * What a handler or an error answer writes for a {@code HEAD} request goes nowhere. (Such answers say
   * {@code Content-Length: 0}, since the server writes the length of what was sent.)
   */
  private static final class NoBody extends FilterOutputStream {
    private final RoutingResponse response;

    NoBody(OutputStream answer, RoutingResponse response) {
      super(answer);
      this.response = response;
    }

    @Override
    public void write(int b) {
      // dropped: see the class
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      // dropped: see the class
    }

    /** Sends the answer's head now, as a send without this filter would, so it counts as sent. */
    @Override
    public void close() throws IOException {
      super.close();
      response.commit();
    }
  }
}
