package dev.tidings.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver written from the Standard Webhooks specification alone (not from Tidings'
 * signing code): it reads {@code webhook-id}, {@code webhook-timestamp} and {@code
 * webhook-signature}, refuses a timestamp more than five minutes from its clock, computes HMAC-SHA256
 * over {@code id.timestamp.body} with each secret it knows (the base64 after {@code whsec_}), and
 * accepts when any {@code v1,} signature in the space-separated list equals one, compared in
 * constant time. Verified deliveries are kept by {@code webhook-id}, so duplicates collapse.
 */
public final class StandardWebhooksReceiver implements AutoCloseable {
  public static final Duration TOLERANCE = Duration.ofMinutes(5);

  /** What the receiver does with the {@code n}th request (1-based) before verifying it. */
  public enum Behaviour {
    ANSWER,
    FAIL,
    HANG
  }

  public interface Plan {
    Behaviour nth(int n);
  }

  private final HttpServer server;
  private volatile List<String> secrets;
  private volatile Plan plan = n -> Behaviour.ANSWER;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger unverified = new AtomicInteger();
  public final Map<String, String> verified = new ConcurrentHashMap<>();
  public final List<String> verifiedIds = new CopyOnWriteArrayList<>();
  public final List<Map<String, String>> headers = new CopyOnWriteArrayList<>();

  public StandardWebhooksReceiver(List<String> secrets) throws IOException {
    this.secrets = List.copyOf(secrets);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/hook", this::handle);
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  public void secrets(List<String> known) {
    this.secrets = List.copyOf(known);
  }

  public void plan(Plan next) {
    this.plan = next;
  }

  public int requests() {
    return requests.get();
  }

  public int unverified() {
    return unverified.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      int n = requests.incrementAndGet();
      switch (plan.nth(n)) {
        case FAIL -> {
          exchange.sendResponseHeaders(500, -1);
          return;
        }
        case HANG -> {
          try {
            Thread.sleep(2_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.sendResponseHeaders(200, -1);
          return;
        }
        case ANSWER -> {}
      }
      String id = exchange.getRequestHeaders().getFirst("webhook-id");
      String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
      String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
      headers.add(Map.of(
          "webhook-id", String.valueOf(id),
          "webhook-timestamp", String.valueOf(timestamp),
          "webhook-signature", String.valueOf(signature),
          "content-type", String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"))));
      if (!verifies(id, timestamp, signature, body)) {
        unverified.incrementAndGet();
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      verified.put(id, new String(body, StandardCharsets.UTF_8));
      verifiedIds.add(id);
      exchange.sendResponseHeaders(204, -1);
    }
  }

  private boolean verifies(String id, String timestamp, String signature, byte[] body) {
    if (id == null || timestamp == null || signature == null) return false;
    long seconds;
    try {
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      return false;
    }
    long now = Instant.now().getEpochSecond();
    if (Math.abs(now - seconds) > TOLERANCE.toSeconds()) return false;
    byte[] signed = concat((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8), body);
    for (String secret : secrets) {
      byte[] expected =
          hmac(Base64.getDecoder().decode(secret.substring("whsec_".length())), signed);
      for (String versioned : signature.split(" ")) {
        int comma = versioned.indexOf(',');
        if (comma < 0 || !versioned.substring(0, comma).equals("v1")) continue;
        byte[] given;
        try {
          given = Base64.getDecoder().decode(versioned.substring(comma + 1));
        } catch (IllegalArgumentException e) {
          continue;
        }
        if (MessageDigest.isEqual(expected, given)) return true;
      }
    }
    return false;
  }

  private static byte[] hmac(byte[] key, byte[] content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(content);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = new byte[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
