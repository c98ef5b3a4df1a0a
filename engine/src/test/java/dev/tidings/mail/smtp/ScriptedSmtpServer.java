package dev.tidings.mail.smtp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny SMTP server whose replies a test scripts exactly: a chosen code at MAIL, RCPT or the end of
 * DATA, or a dropped or silent connection at the moment that matters. GreenMail cannot do these.
 */
final class ScriptedSmtpServer implements AutoCloseable {
  volatile String mailFromReply = "250 2.1.0 ok";
  volatile String rcptReply = "250 2.1.5 ok";
  volatile String endOfDataReply = "250 2.0.0 queued as 42";
  volatile boolean dropAtMailFrom;
  volatile boolean dropAtEndOfData;
  volatile boolean silentAtEndOfData;
  /** After one message on a connection, answer the next command 421 and hang up: an idle timeout. */
  volatile boolean closingOnReuse;
  /** A slow server: every reply, the greeting included, comes this late. */
  volatile Duration replyDelay = Duration.ZERO;

  final AtomicInteger accepted = new AtomicInteger();
  final AtomicInteger connections = new AtomicInteger();

  private final ServerSocket server;
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  private ScriptedSmtpServer(int port) throws IOException {
    server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    acceptor = Thread.ofVirtual().name("scripted-smtp-accept").start(this::acceptLoop);
  }

  /** On a free port. */
  static ScriptedSmtpServer start() throws IOException {
    return new ScriptedSmtpServer(0);
  }

  /** On a given port, to play a server coming back. */
  static ScriptedSmtpServer startOn(int port) throws IOException {
    return new ScriptedSmtpServer(port);
  }

  int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        clients.add(client);
        connections.incrementAndGet();
        Thread.ofVirtual().name("scripted-smtp-client").start(() -> converse(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void converse(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      reply(out, "220 scripted ESMTP ready");
      String line;
      boolean messageDone = false;
      while ((line = readLine(in)) != null) {
        String verb = line.length() >= 4 ? line.substring(0, 4).toUpperCase(Locale.ROOT) : line;
        if (closingOnReuse && messageDone && !verb.equals("QUIT")) {
          reply(out, "421 4.4.2 scripted closing an idle connection");
          return;
        }
        switch (verb) {
          case "EHLO", "HELO" -> reply(out, "250 scripted");
          case "MAIL" -> {
            if (dropAtMailFrom) return;
            reply(out, mailFromReply);
          }
          case "RCPT" -> reply(out, rcptReply);
          case "DATA" -> {
            reply(out, "354 end with <CRLF>.<CRLF>");
            String data;
            while ((data = readLine(in)) != null && !data.equals(".")) {
              // the message itself does not matter here
            }
            if (data == null || dropAtEndOfData) return;
            if (silentAtEndOfData) {
              while (readLine(in) != null) {
                // never answer: the client has to time out
              }
              return;
            }
            String answer = endOfDataReply;
            if (answer.startsWith("250")) accepted.incrementAndGet();
            reply(out, answer);
            messageDone = true;
          }
          case "RSET", "NOOP" -> reply(out, "250 2.0.0 ok");
          case "QUIT" -> {
            reply(out, "221 2.0.0 bye");
            return;
          }
          default -> reply(out, "500 5.5.1 unknown command");
        }
      }
    } catch (IOException e) {
      // the client went away or the test closed us
    } finally {
      clients.remove(client);
    }
  }

  private void reply(OutputStream out, String line) throws IOException {
    try {
      Thread.sleep(replyDelay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static String readLine(InputStream in) throws IOException {
    var line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
    }
    return null;
  }

  /** Stops listening and cuts every open connection, as a crashing server would. */
  @Override
  public void close() throws IOException {
    server.close();
    try {
      // The port is only free once the accepting thread has left accept().
      acceptor.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Socket client : clients) {
      try {
        client.close();
      } catch (IOException ignored) {
        // already gone
      }
    }
  }
}
