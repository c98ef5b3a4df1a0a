package dev.tidings.fuzz;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP/1.1 connection kept alive across many requests, spoken byte by byte as a client that cuts no
 * corner for the server would: a request that says {@code Expect: 100-continue} sends its body after a
 * final answer too when the connection stays open (an attacker does), so a server that took that body for
 * the next request answers out of turn. Every request carries its own {@code X-Request-Id}; an answer that
 * names another id (or none) is a mismatch: the answer belongs to a request the client never made.
 */
final class KeptAliveClient implements AutoCloseable {
  /** What one exchange gave. */
  record Exchange(int status, boolean mismatched, @Nullable String answeredId, boolean sentAgain) {
    /** The client would not send it (a URI it cannot write): not the server's doing. */
    static final Exchange UNSENDABLE = new Exchange(0, false, null, false);

    /** No answer: the server reset or closed the connection before one. */
    static Exchange none(boolean sentAgain) {
      return new Exchange(-1, false, null, sentAgain);
    }
  }

  private record Answer(int status, Map<String, String> headers) {
    @Nullable String header(String name) {
      return headers.get(name);
    }

    boolean closes() {
      String connection = header("connection");
      return connection != null && connection.toLowerCase(Locale.ROOT).contains("close");
    }
  }

  private final String base;
  private final InetSocketAddress server;
  private final InetAddress local;
  private @Nullable Socket socket;
  private @Nullable InputStream in;
  private @Nullable OutputStream out;

  KeptAliveClient(String base, InetAddress local) {
    this.base = base;
    URI uri = URI.create(base);
    this.server = new InetSocketAddress(uri.getHost(), uri.getPort());
    this.local = local;
  }

  /**
   * Sends {@code request} with {@code id} as its {@code X-Request-Id}, with {@code Expect:
   * 100-continue} when {@code expectContinue} and it has a body, and reads its answer. A connection
   * found closed before any byte of the answer is opened again and the request sent once more, as
   * every HTTP client does with a kept-alive connection (the report counts these).
   */
  Exchange exchange(HttpFuzzingTest.Sent request, String id, boolean expectContinue) {
    String target;
    try {
      URI uri = URI.create(base + request.pathAndQuery());
      target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    } catch (IllegalArgumentException unwritable) {
      return Exchange.UNSENDABLE;
    }
    for (String value : request.headers().values())
      if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) return Exchange.UNSENDABLE;
    try {
      return once(request, target, id, expectContinue, false);
    } catch (StaleConnection stale) {
      // a kept connection the server had closed, or a refusal (an over-long request line) whose
      // answer the reset of the bytes it left unread overtook: send it once more, as clients do
      closeQuietly();
      try {
        return once(request, target, id, expectContinue, true);
      } catch (IOException again) {
        closeQuietly();
        return Exchange.none(true);
      }
    } catch (IOException e) {
      closeQuietly();
      return Exchange.none(false);
    }
  }

  private Exchange once(
      HttpFuzzingTest.Sent request,
      String target,
      String id,
      boolean expectContinue,
      boolean sentAgain)
      throws IOException {
    connect();
    byte[] body = request.body();
    boolean hasBody =
        body.length > 0 || !request.method().equals("GET") && !request.method().equals("HEAD");
    boolean expect = expectContinue && body.length > 0;
    var head = new StringBuilder()
        .append(request.method())
        .append(' ')
        .append(target)
        .append(" HTTP/1.1\r\nHost: ")
        .append(server.getHostString())
        .append(':')
        .append(server.getPort())
        .append("\r\nX-Request-Id: ")
        .append(id)
        .append("\r\n");
    request
        .headers()
        .forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    if (hasBody) head.append("Content-Length: ").append(body.length).append("\r\n");
    if (expect) head.append("Expect: 100-continue\r\n");
    head.append("\r\n");
    write(head.toString().getBytes(UTF_8), true);
    if (!expect) {
      try {
        write(body, false);
      } catch (IOException refusedFirst) {
        // the server answered from the head alone (a 414) and closed: its answer may still be there
      }
    }

    boolean headOnly = request.method().equals("HEAD");
    Answer answer = read(true, headOnly);
    if (expect) {
      if (answer.status() == 100) {
        write(body, false);
        answer = read(false, headOnly);
      } else {
        // the answer came before the body was asked for: send it anyway, as an attacker would
        try {
          write(body, false);
        } catch (IOException closed) {
          // the server ended the connection first: what it should do
        }
      }
    }
    String answered = answer.header("x-request-id");
    // a request line or header block over the node's limits is refused before its headers (and so
    // its id) are read, and the connection ends: that answer is this request's all the same
    boolean refusedUnread = (answer.status() == 414 || answer.status() == 431) && answer.closes();
    if (answer.closes()) closeQuietly();
    return new Exchange(
        answer.status(), !id.equals(answered) && !refusedUnread, answered, sentAgain);
  }

  private void connect() throws IOException {
    if (socket != null) return;
    var opened = new Socket();
    opened.bind(new InetSocketAddress(local, 0));
    opened.connect(server, 10_000);
    opened.setSoTimeout(30_000);
    opened.setTcpNoDelay(true);
    socket = opened;
    in = new BufferedInputStream(opened.getInputStream());
    out = opened.getOutputStream();
  }

  private void write(byte[] bytes, boolean first) throws IOException {
    try {
      out().write(bytes);
      out().flush();
    } catch (IOException e) {
      if (first) throw new StaleConnection(e);
      throw e;
    }
  }

  /**
   * The next final or 100 answer, its body read past (an answer to HEAD has none); {@code first}:
   * nothing of it has come yet.
   */
  private Answer read(boolean first, boolean head) throws IOException {
    String statusLine;
    try {
      statusLine = line();
    } catch (SocketException reset) {
      if (first) throw new StaleConnection(reset);
      throw reset;
    }
    if (statusLine == null) {
      if (first) throw new StaleConnection(null);
      throw new IOException("the connection ended before an answer");
    }
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1."))
      throw new IOException("not an answer: " + statusLine);
    int status = Integer.parseInt(parts[1]);
    Map<String, String> headers = new TreeMap<>();
    for (String header = line(); header != null && !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      if (colon > 0)
        headers.put(
            header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            header.substring(colon + 1).trim());
    }
    var answer = new Answer(status, headers);
    if (head || status == 100 || status == 204 || status == 304) return answer;
    if ("chunked".equalsIgnoreCase(answer.header("transfer-encoding"))) {
      for (int size = chunkSize(); size > 0; size = chunkSize()) {
        skip(size);
        line();
      }
      for (String trailer = line(); trailer != null && !trailer.isEmpty(); trailer = line()) {
        // trailers carry nothing this client needs
      }
    } else if (answer.header("content-length") != null) {
      skip(Long.parseLong(answer.header("content-length")));
    } else {
      skip(Long.MAX_VALUE);
    }
    return answer;
  }

  private int chunkSize() throws IOException {
    String line = line();
    if (line == null) throw new IOException("the connection ended inside a chunked answer");
    int extension = line.indexOf(';');
    return Integer.parseInt((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
  }

  private void skip(long bytes) throws IOException {
    long left = bytes;
    byte[] buffer = new byte[8192];
    while (left > 0) {
      int read = in().read(buffer, 0, (int) Math.min(buffer.length, left));
      if (read < 0) {
        if (bytes == Long.MAX_VALUE) return;
        throw new IOException("the connection ended inside an answer's body");
      }
      left -= read;
    }
  }

  private @Nullable String line() throws IOException {
    var line = new ByteArrayOutputStream();
    int c;
    while ((c = in().read()) != -1) {
      if (c == '\n') return line.toString(ISO_8859_1).stripTrailing();
      line.write(c);
    }
    return line.size() == 0 ? null : line.toString(ISO_8859_1);
  }

  private InputStream in() {
    if (in == null) throw new IllegalStateException("not connected");
    return in;
  }

  private OutputStream out() {
    if (out == null) throw new IllegalStateException("not connected");
    return out;
  }

  private void closeQuietly() {
    try {
      if (socket != null) socket.close();
    } catch (IOException ignored) {
      // closing a connection the server may have reset
    }
    socket = null;
    in = null;
    out = null;
  }

  @Override
  public void close() {
    closeQuietly();
  }

  /** The connection was found closed before any byte of this exchange's answer: send again. */
  private static final class StaleConnection extends IOException {
    private static final long serialVersionUID = 1L;

    StaleConnection(@Nullable IOException cause) {
      super("the kept-alive connection was closed by the server", cause);
    }
  }
}
