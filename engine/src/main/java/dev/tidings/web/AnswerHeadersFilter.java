package dev.tidings.web;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * What every answer carries (or not), routed or refused before routing ({@link ServerErrors} uses the same):
 *
 * <ul>
 *   <li>{@code X-Content-Type-Options: nosniff}: many answers quote the request (a 404 names its path,
 *       a 422 the value it refused), and a browser must read each as the type it declares, never sniff
 *       a JSON error into HTML.
 *   <li>{@code X-Request-Id}: the client's own, when it sent a short plain one (a proxy's or a load
 *       balancer's), else one made here; it is in the access log line too, so an answer, a proxy's log
 *       and the node's log name the same request, and a client can tell which request an answer is for.
 * </ul>
 *
 * <p>And no answer to {@code HEAD} has a body, whatever the route or the error mapping sent.
 */
final class AnswerHeadersFilter implements Filter {
  static final String NOSNIFF = "nosniff";
  static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  @Override
  public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
    response.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, NOSNIFF);
    response.header(REQUEST_ID, requestId(request.headers()));
    if (Method.HEAD.equals(request.prologue().method()))
      response.streamFilter(answer -> new NoBody(answer, response));
    chain.proceed();
  }

  /**
   * What a handler or an error answer writes for a {@code HEAD} request goes nowhere: an answer to HEAD
   * has no body, and one that had would be read by a kept-alive client as the start of its next answer.
   * (Such answers say {@code Content-Length: 0}, since the server writes the length of what was sent.)
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

  /** The request's id: the client's when it is short and plain (it is echoed and logged), else a new one. */
  static String requestId(Headers headers) {
    var given = headers.first(REQUEST_ID);
    if (given.isPresent() && PLAIN_ID.matcher(given.get()).matches()) return given.get();
    byte[] random = new byte[8];
    ThreadLocalRandom.current().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }
}
