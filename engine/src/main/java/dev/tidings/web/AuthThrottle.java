package dev.tidings.web;

import dev.tidings.coordination.RateLimiter;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failed credentials (an API key, a sign-in, a metrics token) counted in the node's shared {@link
 * RateLimiter} twice: per client address and per credential offered, {@link #FAILURES} a minute each;
 * past either, the failure is answered 429 with {@code Retry-After} until the bucket has refilled.
 *
 * <p>The credential is checked first and a right one is never refused: only failures wait. Behind a
 * reverse proxy every client has the proxy's address, so an address-only throttle that refused the right
 * key too let one anonymous client close the API, the dashboard and {@code /metrics} for everyone. What
 * keeps guessing hopeless is the credentials' own length (at least 16 characters, checked at start); the
 * throttle bounds the cost and noise of wrong ones, from one address or of one credential retried from
 * many. Each node remembers a wait itself (the newest {@link #MAX_WAITING} buckets, {@link
 * RememberedWaits}) so that a client hammering while it waits costs no round trip to the limiter. The offered credential is never logged
 * nor stored: its bucket is named by a digest of it.
 */
public final class AuthThrottle {
  private static final Logger log = LoggerFactory.getLogger(AuthThrottle.class);
  public static final int FAILURES = 10;
  static final RateLimiter.Limit LIMIT = new RateLimiter.Limit(FAILURES / 60.0, FAILURES);
  static final int MAX_WAITING = 10_000;

  /** What was offered and failed; the metric's label. */
  public enum Kind {
    API_KEY,
    SIGN_IN,
    METRICS;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final RateLimiter limiter;
  private final InstantSource clock;
  private final Counter[] failures = new Counter[Kind.values().length];
  private final RememberedWaits waits;

  public AuthThrottle(RateLimiter limiter, MeterRegistry registry, InstantSource clock) {
    this.limiter = limiter;
    this.clock = clock;
    this.waits = new RememberedWaits(MAX_WAITING, clock, registry);
    for (Kind kind : Kind.values()) {
      failures[kind.ordinal()] = Counter.builder("tidings_auth_failures")
          .description("Credentials refused, by what was offered")
          .tag("kind", kind.label())
          .register(registry);
    }
  }

  /**
   * Counts a refused credential, {@code offered} as the client sent it: how long to wait when it was
   * one too many from its address or of that credential (the caller answers 429 then), else empty (the
   * caller answers 401 as it would have).
   */
  public Optional<Duration> failed(Kind kind, ServerRequest request, String offered) {
    failures[kind.ordinal()].increment();
    String address = "auth-failures:" + address(request);
    String credential = "auth-failures:credential:" + digest(offered);
    Optional<Duration> waiting = longest(waiting(address), waiting(credential));
    if (waiting.isPresent()) return waiting;
    try {
      return longest(take(address), take(credential));
    } catch (RuntimeException e) {
      // the coordinator is down: the credential was refused anyway, only the count is lost
      log.warn(
          "cannot count a failed {} from {}: {}", kind.label(), address(request), e.toString());
      return Optional.empty();
    }
  }

  private Optional<Duration> take(String bucket) {
    RateLimiter.Decision decision = limiter.tryAcquire(bucket, LIMIT, 1);
    if (decision.granted()) return Optional.empty();
    Duration wait = decision.retryAfter().isZero() ? Duration.ofSeconds(1) : decision.retryAfter();
    waits.remember(bucket, clock.instant().plus(wait));
    return Optional.of(wait);
  }

  private Optional<Duration> waiting(String bucket) {
    return waits.waiting(bucket);
  }

  private static Optional<Duration> longest(Optional<Duration> a, Optional<Duration> b) {
    if (a.isEmpty()) return b;
    if (b.isEmpty()) return a;
    return a.get().compareTo(b.get()) >= 0 ? a : b;
  }

  /** Names a credential's bucket without keeping the credential: 96 bits of its SHA-256. */
  private static String digest(String offered) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(("tidings auth throttle\n" + offered).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** Whole seconds for {@code Retry-After}, rounded up. */
  public static long seconds(Duration wait) {
    return Math.max(1, (wait.toMillis() + 999) / 1000);
  }

  /** The JSON 429 the API edge answers. */
  static void tooMany(ServerResponse response, Duration wait) {
    long seconds = seconds(wait);
    response.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
    ErrorMapping.send(
        response,
        new ApiProblem(
            429,
            "too_many_requests",
            "too many failed attempts from this address or with this credential: try again in "
                + seconds
                + " s"));
  }

  private static String address(ServerRequest request) {
    SocketAddress peer = request.remotePeer().address();
    return peer instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress().getHostAddress()
        : String.valueOf(peer);
  }
}
