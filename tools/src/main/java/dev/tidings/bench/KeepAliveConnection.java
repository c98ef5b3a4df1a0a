package dev.tidings.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection that sends GETs and POSTs and reads answers with Content-Length, for load
 * generation: no pool, no executor hand-offs and no header objects, so that the bench measures the
 * server rather than its own client ({@code java.net.http} spent more CPU per request than the nodes
 * it was measuring). Requests may be written before the answers to earlier ones are read; answers
 * come back in the order of the requests. Not thread-safe: one owner at a time.
 */
final class KeepAliveConnection implements AutoCloseable {
  /** What the bench looks at in an answer. */
  record Answer(int status, String etag) {}

  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
  private final InetSocketAddress address;
  private final byte[] hostLine;
  private final int readTimeoutMillis;
  private Link link;
  private final byte[] skip = new byte[16 * 1024];
  private final StringBuilder line = new StringBuilder(128);

  KeepAliveConnection(String host, int port, int readTimeoutMillis) throws IOException {
    this.address = new InetSocketAddress(host, port);
    this.hostLine = ("Host: " + host + ":" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    this.readTimeoutMillis = readTimeoutMillis;
    this.link = open();
  }

  private record Link(Socket socket, OutputStream out, InputStream in) {}

  private Link open() throws IOException {
    var socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(address, CONNECT_TIMEOUT_MILLIS);
    socket.setSoTimeout(readTimeoutMillis);
    return new Link(
        socket,
        socket.getOutputStream(),
        new BufferedInputStream(socket.getInputStream(), 64 * 1024));
  }

  /** Writes one GET in a single write (a request split over writes would meet Nagle's delay). */
  void send(String path) throws IOException {
    send(path, List.of());
  }

  /** Writes one GET with the given header lines (each without its CRLF), in a single write. */
  void send(String path, List<String> headers) throws IOException {
    var head = new StringBuilder(128).append("GET ").append(path).append(" HTTP/1.1\r\n");
    for (String header : headers) head.append(header).append("\r\n");
    byte[] start = head.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[start.length + hostLine.length];
    System.arraycopy(start, 0, request, 0, start.length);
    System.arraycopy(hostLine, 0, request, start.length, hostLine.length);
    link.out().write(request);
    link.out().flush();
  }

  /**
   * Writes one POST of {@code body} with the given header lines (each without its CRLF), head and body
   * in a single write.
   */
  void post(String path, List<String> headers, byte[] body) throws IOException {
    var head = new StringBuilder(256)
        .append("POST ")
        .append(path)
        .append(" HTTP/1.1\r\nContent-Length: ")
        .append(body.length)
        .append("\r\n");
    for (String header : headers) head.append(header).append("\r\n");
    byte[] start = head.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[start.length + hostLine.length + body.length];
    System.arraycopy(start, 0, request, 0, start.length);
    System.arraycopy(hostLine, 0, request, start.length, hostLine.length);
    System.arraycopy(body, 0, request, start.length + hostLine.length, body.length);
    link.out().write(request);
    link.out().flush();
  }

  /** Reads the answer to the oldest request not yet read, body discarded. */
  Answer read() throws IOException {
    String statusLine = readLine();
    if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12)
      throw new IOException("not an HTTP/1.1 status line: " + statusLine);
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long length = -1;
    String etag = "";
    boolean close = false;
    for (String header = readLine(); !header.isEmpty(); header = readLine()) {
      int colon = header.indexOf(':');
      if (colon < 0) continue;
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "etag" -> etag = value;
        case "connection" -> close = value.equalsIgnoreCase("close");
        case "transfer-encoding" -> throw new IOException("chunked answers are not read here");
        default -> {}
      }
    }
    if (length < 0 && status != 304 && status != 204)
      throw new IOException("answer without Content-Length: " + statusLine);
    for (long left = Math.max(0, length); left > 0; ) {
      int read = link.in().read(skip, 0, (int) Math.min(skip.length, left));
      if (read < 0) throw new IOException("connection closed inside a body");
      left -= read;
    }
    if (close) reconnect();
    return new Answer(status, etag);
  }

  /** After a failure the connection's state is unknown: start a fresh one. */
  void reconnect() throws IOException {
    closeQuietly();
    link = open();
  }

  private String readLine() throws IOException {
    line.setLength(0);
    for (int c = link.in().read(); c != '\n'; c = link.in().read()) {
      if (c < 0) throw new IOException("connection closed by the server");
      if (c != '\r') line.append((char) c);
    }
    return line.toString();
  }

  private void closeQuietly() {
    try {
      link.socket().close();
    } catch (IOException ignored) {
      // closing a broken socket: nothing more to learn
    }
  }

  @Override
  public void close() {
    closeQuietly();
  }
}
