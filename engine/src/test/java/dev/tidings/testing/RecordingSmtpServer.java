package dev.tidings.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An SMTP server that accepts every message and keeps each one it answered 250 at the end of DATA, in
 * order, however often the same email arrives: a fault scenario's record of what reached the mail
 * provider, where a duplicate send shows as a second copy (a worker's outbox would overwrite it).
 * Plain SMTP on 127.0.0.1, no TLS, no auth: point {@code TIDINGS_SMTP_URL} at {@link #url()}.
 */
public final class RecordingSmtpServer implements AutoCloseable {
  /** One message as received: its envelope recipients and its raw bytes (headers and body). */
  public record Received(List<String> recipients, byte[] data, long receivedAtNanos) {
    /** The value of the first header of that name, or empty. */
    public String header(String name) {
      String text = new String(data, ISO_8859_1);
      String prefix = name.toLowerCase(Locale.ROOT) + ":";
      for (String line : text.split("\r\n")) {
        if (line.isEmpty()) break;
        if (line.toLowerCase(Locale.ROOT).startsWith(prefix))
          return line.substring(prefix.length()).trim();
      }
      return "";
    }
  }

  private final ServerSocket server;
  private final List<Received> received = new ArrayList<>();
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();

  private RecordingSmtpServer() throws IOException {
    QuickRun.refuse("a mail server");
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread.ofVirtual().name("recording-smtp-accept").start(this::acceptLoop);
  }

  public static RecordingSmtpServer start() throws IOException {
    return new RecordingSmtpServer();
  }

  public String url() {
    return "smtp://127.0.0.1:" + server.getLocalPort() + "?pool=4";
  }

  public synchronized List<Received> received() {
    return List.copyOf(received);
  }

  public synchronized int count() {
    return received.size();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        clients.add(client);
        Thread.ofVirtual().name("recording-smtp").start(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    try (client;
        var in = new BufferedReader(new InputStreamReader(client.getInputStream(), ISO_8859_1));
        OutputStream out = client.getOutputStream()) {
      reply(out, "220 recording smtp");
      List<String> recipients = new ArrayList<>();
      String line;
      while ((line = in.readLine()) != null) {
        String command = line.length() < 4 ? line : line.substring(0, 4).toUpperCase(Locale.ROOT);
        switch (command) {
          case "EHLO" -> reply(out, "250-recording\r\n250-8BITMIME\r\n250 SMTPUTF8");
          case "HELO" -> reply(out, "250 recording");
          case "MAIL" -> {
            recipients = new ArrayList<>();
            reply(out, "250 2.1.0 ok");
          }
          case "RCPT" -> {
            recipients.add(line.substring(line.indexOf('<') + 1, line.lastIndexOf('>')));
            reply(out, "250 2.1.5 ok");
          }
          case "DATA" -> {
            reply(out, "354 go ahead");
            var data = new ByteArrayOutputStream();
            String body;
            while ((body = in.readLine()) != null && !body.equals(".")) {
              if (body.startsWith("..")) body = body.substring(1);
              data.write(body.getBytes(ISO_8859_1));
              data.write('\r');
              data.write('\n');
            }
            if (body == null) return; // the client went away mid-message: nothing was accepted
            synchronized (this) {
              received.add(
                  new Received(List.copyOf(recipients), data.toByteArray(), System.nanoTime()));
            }
            reply(out, "250 2.0.0 queued as " + System.nanoTime());
          }
          case "RSET" -> {
            recipients = new ArrayList<>();
            reply(out, "250 ok");
          }
          case "NOOP" -> reply(out, "250 ok");
          case "QUIT" -> {
            reply(out, "221 bye");
            return;
          }
          default -> reply(out, "502 5.5.2 not implemented");
        }
      }
    } catch (IOException e) {
      // a client that drops its connection ends its session; what it completed stays recorded
    } finally {
      clients.remove(client);
    }
  }

  private static void reply(OutputStream out, String text) throws IOException {
    out.write((text + "\r\n").getBytes(ISO_8859_1));
    out.flush();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket client : clients) client.close();
  }
}
