package dev.tidings.fetch;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * The one way Tidings fetches a URL that came from input. Only http(s); the host is resolved and
 * every address it resolves to is checked ({@link AddressRules}, unless the {@link FetchAllowance}
 * names it) on every hop; the client then connects to exactly the addresses checked, never looking
 * the name up again (a second lookup could answer differently: DNS rebinding). Redirects are
 * followed here, at most {@link Limits#maxRedirects()}, each hop checked again. The whole fetch, all
 * hops and the last byte included, runs under one deadline, and the body is read up to the byte
 * limit and no further.
 *
 * <p>Apache HttpClient rather than the JDK's: the JDK client resolves names itself with no hook, so
 * it could only be pinned to a checked address by putting the address in the URL, which breaks
 * TLS's name check and SNI for https. HttpClient's {@link DnsResolver} is that hook, and TLS still
 * verifies the certificate against the URL's host name.
 */
public final class GuardedFetcher implements AutoCloseable {
  /**
   * @param connect to open one connection
   * @param total the whole fetch, every redirect and the last byte included
   * @param maxBytes a body longer than this is refused, reading stops past it
   * @param maxRedirects redirects followed before giving up
   */
  public record Limits(Duration connect, Duration total, long maxBytes, int maxRedirects) {
    public Limits {
      Objects.requireNonNull(connect, "connect");
      Objects.requireNonNull(total, "total");
      if (connect.isNegative() || connect.isZero() || total.isNegative() || total.isZero())
        throw new IllegalArgumentException("the time limits must be positive");
      if (maxBytes <= 0 || maxBytes >= Integer.MAX_VALUE)
        throw new IllegalArgumentException("maxBytes must be between 1 and 2^31-2");
      if (maxRedirects < 0) throw new IllegalArgumentException("maxRedirects must not be negative");
    }

    public static Limits of(Duration total, long maxBytes) {
      return new Limits(total, total, maxBytes, 3);
    }
  }

  /** Looks a name up; a test may answer for names that do not exist. */
  @FunctionalInterface
  public interface HostResolver {
    InetAddress[] resolve(String host) throws UnknownHostException;

    HostResolver SYSTEM = InetAddress::getAllByName;
  }

  private final FetchAllowance allowance;
  private final HostResolver resolver;
  private final Limits limits;
  private final CloseableHttpClient client;
  private final MeterRegistry metrics;
  private final Map<FetchPurpose, Counters> counters = new EnumMap<>(FetchPurpose.class);

  private record Counters(Counter fetched, Counter notModified, Counter refused, Counter failed) {}

  public GuardedFetcher(FetchAllowance allowance, Limits limits, MeterRegistry metrics) {
    this(allowance, HostResolver.SYSTEM, limits, metrics);
  }

  public GuardedFetcher(
      FetchAllowance allowance, HostResolver resolver, Limits limits, MeterRegistry metrics) {
    this.allowance = allowance;
    this.resolver = resolver;
    this.limits = limits;
    this.metrics = metrics;
    var timeout = Timeout.of(limits.connect());
    var connections = PoolingHttpClientConnectionManagerBuilder.create()
        .setDnsResolver(new CheckingResolver())
        .setDefaultConnectionConfig(ConnectionConfig.custom()
            .setConnectTimeout(timeout)
            .setSocketTimeout(Timeout.of(limits.total()))
            .build())
        .setMaxConnTotal(64)
        .setMaxConnPerRoute(4)
        .build();
    // no system proxy (it would fetch on our behalf from wherever it is), no retries, no cookies,
    // no decompression (the byte limit counts what arrives)
    this.client = HttpClients.custom()
        .setConnectionManager(connections)
        .disableRedirectHandling()
        .disableAutomaticRetries()
        .disableCookieManagement()
        .disableAuthCaching()
        .disableContentCompression()
        .setDefaultRequestConfig(RequestConfig.custom()
            .setConnectionRequestTimeout(timeout)
            .setResponseTimeout(Timeout.of(limits.total()))
            .build())
        .setUserAgent("Tidings")
        .build();
    for (var purpose : FetchPurpose.values())
      counters.put(
          purpose,
          new Counters(
              counter(purpose, "fetched"),
              counter(purpose, "not_modified"),
              counter(purpose, "refused"),
              counter(purpose, "failed")));
  }

  private Counter counter(FetchPurpose purpose, String result) {
    return Counter.builder("tidings_fetch_requests_total")
        .description("Fetches of URLs from input, by what they were for and what they came to")
        .tag("purpose", purpose.label())
        .tag("result", result)
        .register(metrics);
  }

  /** Fetches {@code url} for {@code purpose}; never throws for what the URL or its server does. */
  public FetchResult fetch(String url, FetchPurpose purpose) {
    URI parsed;
    try {
      parsed = new URI(url);
    } catch (URISyntaxException e) {
      var refused = new FetchResult.Refused("not a URL: " + e.getReason());
      count(purpose, refused);
      return refused;
    }
    return fetch(parsed, purpose);
  }

  public FetchResult fetch(URI url, FetchPurpose purpose) {
    return fetch(url, purpose, Map.of());
  }

  /**
   * Fetches {@code url} sending {@code headers} as well, on every hop: a conditional fetch's {@code
   * If-None-Match} and {@code If-Modified-Since}, to which an unchanged resource answers {@link
   * FetchResult.NotModified}. The headers come from code (or a previous answer), never from input.
   */
  public FetchResult fetch(URI url, FetchPurpose purpose, Map<String, String> headers) {
    var current = new AtomicReference<@Nullable HttpGet>();
    var task = new FutureTask<>(() -> follow(url, purpose, headers, current));
    Thread.ofVirtual().name("guarded-fetch").start(task);
    FetchResult result;
    try {
      result = task.get(limits.total().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      stop(task, current);
      result = new FetchResult.Failed("no complete answer within " + limits.total());
    } catch (InterruptedException e) {
      stop(task, current);
      Thread.currentThread().interrupt();
      result = new FetchResult.Failed("interrupted");
    } catch (ExecutionException e) {
      result = new FetchResult.Failed(String.valueOf(e.getCause()));
    }
    count(purpose, result);
    return result;
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // closing pooled sockets: nothing to do about a failure
    }
  }

  private void count(FetchPurpose purpose, FetchResult result) {
    var of = Objects.requireNonNull(counters.get(purpose));
    var counter = switch (result) {
      case FetchResult.Fetched f -> of.fetched();
      case FetchResult.NotModified n -> of.notModified();
      case FetchResult.Refused r -> of.refused();
      case FetchResult.Failed f -> of.failed();
    };
    counter.increment();
  }

  private static void stop(FutureTask<?> task, AtomicReference<@Nullable HttpGet> current) {
    var request = current.get();
    if (request != null) request.cancel();
    task.cancel(true);
  }

  private FetchResult follow(
      URI start,
      FetchPurpose purpose,
      Map<String, String> headers,
      AtomicReference<@Nullable HttpGet> current) {
    URI url = start;
    for (int hop = 0; ; hop++) {
      var refusal = refusal(url);
      if (refusal != null) return new FetchResult.Refused(refusal);
      var request = new HttpGet(url);
      request.setHeader("Accept", purpose.accept());
      request.setHeader("Accept-Encoding", "identity");
      headers.forEach(request::setHeader);
      current.set(request);
      Hop answer;
      try {
        answer = client.execute(request, response -> read(response, purpose));
      } catch (RefusedAddress e) {
        return new FetchResult.Refused(e.reason());
      } catch (IOException | RuntimeException e) {
        if (e.getCause() instanceof RefusedAddress refused)
          return new FetchResult.Refused(refused.reason());
        return new FetchResult.Failed(e.toString());
      }
      switch (answer) {
        case Hop.Done done -> {
          return done.result();
        }
        case Hop.Body body -> {
          return new FetchResult.Fetched(body.bytes(), body.contentType(), url, body.validators());
        }
        case Hop.Redirect redirect -> {
          if (hop >= limits.maxRedirects())
            return new FetchResult.Refused("more than " + limits.maxRedirects() + " redirects");
          try {
            url = url.resolve(new URI(redirect.location()));
          } catch (URISyntaxException | IllegalArgumentException e) {
            return new FetchResult.Failed("a redirect to something that is not a URL");
          }
        }
      }
    }
  }

  /** Why a URL may not be fetched before any lookup, or null. */
  private static @Nullable String refusal(URI url) {
    String scheme = url.getScheme();
    if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https")))
      return "not an http(s) URL";
    if (url.getHost() == null) return "no host name";
    if (url.getRawUserInfo() != null) return "user info in the URL";
    return null;
  }

  private sealed interface Hop {
    record Done(FetchResult result) implements Hop {}

    record Redirect(String location) implements Hop {}

    record Body(byte[] bytes, String contentType, Map<String, String> validators) implements Hop {}
  }

  private Hop read(ClassicHttpResponse response, FetchPurpose purpose) throws IOException {
    int status = response.getCode();
    if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
      Header location = response.getFirstHeader("Location");
      if (location == null)
        return new Hop.Done(new FetchResult.Failed("a redirect with no Location"));
      return new Hop.Redirect(location.getValue());
    }
    if (status == 304) return new Hop.Done(new FetchResult.NotModified());
    if (status != 200) return new Hop.Done(new FetchResult.Failed("status " + status));
    var entity = response.getEntity();
    if (entity == null) return new Hop.Done(new FetchResult.Failed("no body"));
    String type = entity.getContentType() == null ? "" : entity.getContentType();
    if (!purpose.acceptsType(type))
      return new Hop.Done(new FetchResult.Refused("content type '" + type.toLowerCase(Locale.ROOT)
          + "' is not one for " + purpose.label()));
    long declared = entity.getContentLength();
    if (declared > limits.maxBytes())
      return new Hop.Done(new FetchResult.Refused("larger than " + limits.maxBytes() + " bytes"));
    byte[] body;
    try (InputStream in = entity.getContent()) {
      body = in.readNBytes(Math.toIntExact(limits.maxBytes() + 1));
    }
    // the connection is not read to its end: closing the response discards it
    if (body.length > limits.maxBytes())
      return new Hop.Done(new FetchResult.Refused("larger than " + limits.maxBytes() + " bytes"));
    if (!purpose.acceptsBody(body))
      return new Hop.Done(new FetchResult.Refused("the body is not what its content type says"));
    var validators = new java.util.LinkedHashMap<String, String>();
    for (String name : List.of("ETag", "Last-Modified")) {
      Header header = response.getFirstHeader(name);
      // a validator is sent back as a header: one line, and not without bound
      if (header != null
          && header.getValue() != null
          && header.getValue().length() <= 1024
          && header.getValue().chars().noneMatch(c -> c < 0x20 || c == 0x7f))
        validators.put(name, header.getValue());
    }
    return new Hop.Body(body, type, validators);
  }

  /** Thrown from the lookup the client makes, so the client never connects to what it names. */
  private static final class RefusedAddress extends UnknownHostException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    RefusedAddress(String reason) {
      super(reason);
      this.reason = reason;
    }

    String reason() {
      return reason;
    }
  }

  /**
   * The client's only way to a name's addresses: one lookup, every address checked, and exactly
   * those addresses handed back for the client to connect to.
   */
  private final class CheckingResolver implements DnsResolver {
    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
      throw new UnknownHostException("addresses are only resolved with their port");
    }

    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
      String bare =
          host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
      InetAddress[] addresses = resolver.resolve(bare);
      if (addresses.length == 0) throw new UnknownHostException(host);
      var checked = new ArrayList<InetSocketAddress>(addresses.length);
      for (InetAddress address : addresses) {
        var kind = AddressRules.classify(address);
        if (kind != AddressRules.Kind.PUBLIC && !allowance.allows(bare, address, port))
          throw new RefusedAddress(host + " resolves to a "
              + kind.name().toLowerCase(Locale.ROOT).replace('_', '-')
              + " address, which TIDINGS_FETCH_ALLOW does not name");
        checked.add(new InetSocketAddress(address, port));
      }
      return checked;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
      return host;
    }
  }
}
