package dev.tidings.web;

import dev.tidings.coordination.RateLimiter;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failed credentials (an API key, a sign-in, a metrics token) counted per client address in the
 * node's shared {@link RateLimiter}: {@link #FAILURES} a minute, then 429 with {@code Retry-After}
 * until the bucket has refilled. An address over the limit is refused before its credential is even
 * looked at, so a correct guess cannot be told from a wrong one while it waits; each node remembers
 * that wait itself (at most {@link #MAX_WAITING} addresses), the count is shared by every node.
 * Behind a proxy every client has the proxy's address: the limit then holds for all of them together.
 * The offered credential is never logged.
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
  private final ConcurrentHashMap<String, Instant> waitingUntil = new ConcurrentHashMap<>();

  public AuthThrottle(RateLimiter limiter, MeterRegistry registry, InstantSource clock) {
    this.limiter = limiter;
    this.clock = clock;
    for (Kind kind : Kind.values()) {
      failures[kind.ordinal()] = Counter.builder("tidings_auth_failures")
          .description("Credentials refused, by what was offered")
          .tag("kind", kind.label())
          .register(registry);
    }
  }

  /**
   * How long the request's address must still wait, if it must: the caller answers 429 then, and
   * checks the credential only otherwise.
   */
  public Optional<Duration> waiting(ServerRequest request) {
    String address = address(request);
    Instant until = waitingUntil.get(address);
    if (until == null) return Optional.empty();
    Instant now = clock.instant();
    if (!until.isAfter(now)) {
      waitingUntil.remove(address, until);
      return Optional.empty();
    }
    return Optional.of(Duration.between(now, until));
  }

  /**
   * Counts a refused credential; how long to wait when it was one too many (the caller answers 429
   * then), else empty (the caller answers as it would have).
   */
  public Optional<Duration> failed(Kind kind, ServerRequest request) {
    failures[kind.ordinal()].increment();
    String address = address(request);
    RateLimiter.Decision decision;
    try {
      decision = limiter.tryAcquire("auth-failures:" + address, LIMIT, 1);
    } catch (RuntimeException e) {
      // the coordinator is down: the credential was refused anyway, only the count is lost
      log.warn("cannot count a failed {} from {}: {}", kind.label(), address, e.toString());
      return Optional.empty();
    }
    if (decision.granted()) return Optional.empty();
    Duration wait = decision.retryAfter().isZero() ? Duration.ofSeconds(1) : decision.retryAfter();
    remember(address, clock.instant().plus(wait));
    return Optional.of(wait);
  }

  /** Whole seconds for {@code Retry-After}, rounded up. */
  public static long seconds(Duration wait) {
    return Math.max(1, (wait.toMillis() + 999) / 1000);
  }

  private void remember(String address, Instant until) {
    if (waitingUntil.size() >= MAX_WAITING) {
      Instant now = clock.instant();
      waitingUntil.entrySet().removeIf(entry -> !entry.getValue().isAfter(now));
      // still full: the shared count refuses this address again on its next failure
      if (waitingUntil.size() >= MAX_WAITING) return;
    }
    waitingUntil.put(address, until);
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
            "too many failed attempts from this address: try again in " + seconds + " s"));
  }

  private static String address(ServerRequest request) {
    SocketAddress peer = request.remotePeer().address();
    return peer instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress().getHostAddress()
        : String.valueOf(peer);
  }
}
