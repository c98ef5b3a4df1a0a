package dev.tidings.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * An SMTP server on the loopback interface that accepts every message and keeps none, one virtual
 * thread per connection: the far end of the send benchmark, so that what is measured is Tidings, not
 * a mail server's disk.
 */
public final class DiscardSmtpServer implements AutoCloseable {
  private final ServerSocket server;
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong connections = new AtomicLong();

  private DiscardSmtpServer() throws IOException {
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
    Thread.ofVirtual().name("discard-smtp-accept").start(this::acceptLoop);
  }

  public static DiscardSmtpServer start() throws IOException {
    return new DiscardSmtpServer();
  }

  public int port() {
    return server.getLocalPort();
  }

  public long accepted() {
    return accepted.get();
  }

  public long connections() {
    return connections.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        client.setTcpNoDelay(true);
        clients.add(client);
        connections.incrementAndGet();
        Thread.ofVirtual().name("discard-smtp").start(() -> converse(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void converse(Socket client) {
    try (client) {
      var in = new Input(client.getInputStream());
      OutputStream out = client.getOutputStream();
      reply(out, "220 discard ESMTP");
      String line;
      while ((line = in.line()) != null) {
        String verb = line.length() >= 4 ? line.substring(0, 4).toUpperCase(Locale.ROOT) : line;
        switch (verb) {
          case "EHLO" -> reply(out, "250-discard\r\n250-8BITMIME\r\n250 SIZE 52428800");
          case "HELO" -> reply(out, "250 discard");
          case "MAIL", "RCPT", "RSET", "NOOP" -> reply(out, "250 ok");
          case "DATA" -> {
            reply(out, "354 go ahead");
            if (!in.skipData()) return;
            accepted.incrementAndGet();
            reply(out, "250 discarded");
          }
          case "QUIT" -> {
            reply(out, "221 bye");
            return;
          }
          default -> reply(out, "502 not implemented");
        }
      }
    } catch (IOException e) {
      // the client went away
    } finally {
      clients.remove(client);
    }
  }

  private static void reply(OutputStream out, String text) throws IOException {
    out.write((text + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** The client's bytes, read a block at a time (a read per byte would cost this server most of its time). */
  private static final class Input {
    private final InputStream in;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;

    Input(InputStream in) {
      this.in = in;
    }

    private boolean fill() throws IOException {
      int read = in.read(buffer);
      if (read < 0) return false;
      position = 0;
      limit = read;
      return true;
    }

    @Nullable String line() throws IOException {
      var line = new ByteArrayOutputStream(64);
      while (true) {
        if (position == limit && !fill()) return null;
        byte b = buffer[position++];
        if (b == '\n') {
          byte[] bytes = line.toByteArray();
          int length =
              bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
          return new String(bytes, 0, length, StandardCharsets.US_ASCII);
        }
        line.write(b);
      }
    }

    /** Skips to the lone dot that ends the message data; false when the connection ended first. */
    boolean skipData() throws IOException {
      // how much of CRLF "." CRLF has been seen, counting the CRLF that ended the DATA command
      int state = 2;
      while (true) {
        if (position == limit && !fill()) return false;
        byte b = buffer[position++];
        state = switch (state) {
          case 0 -> b == '\r' ? 1 : 0;
          case 1 -> b == '\n' ? 2 : b == '\r' ? 1 : 0;
          case 2 -> b == '.' ? 3 : b == '\r' ? 1 : 0;
          case 3 -> b == '\r' ? 4 : 0;
          case 4 -> b == '\n' ? 5 : b == '\r' ? 1 : 0;
          default -> 0;
        };
        if (state == 5) return true;
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket client : clients) client.close();
  }
}
