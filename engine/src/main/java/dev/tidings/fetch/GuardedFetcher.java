package dev.tidings.fetch;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way Tidings fetches a URL that came from input. Only http(s); the host is resolved and
 * every address it resolves to is checked ({@link AddressRules}, unless the {@link FetchAllowance}
 * names it) on every hop; the client then connects to exactly the addresses checked, never looking
 * the name up again (a second lookup could answer differently: DNS rebinding). Redirects are
 * followed here, at most {@link Limits#maxRedirects()}, each hop checked again. The whole fetch, all
 * hops and the last byte included, runs under one deadline, and the body is read up to the byte
 * limit and no further. A {@link #post} (a webhook's delivery) goes through the same address checks
 * and deadline, but follows no redirect: a POST is answered where it was sent, or not at all. The body is kept in memory ({@link #fetch}) or streamed to a file ({@link
 * #fetchToFile}); both go through the same hops and the same checks, only where the bytes go differs.
 *
 * <p>Apache HttpClient rather than the JDK's: the JDK client resolves names itself with no hook, so
 * it could only be pinned to a checked address by putting the address in the URL, which breaks
 * TLS's name check and SNI for https. HttpClient's {@link DnsResolver} is that hook, and TLS still
 * verifies the certificate against the URL's host name.
 */
public final class GuardedFetcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedFetcher.class);
  /** The first bytes of a body, read before any is kept: enough for any format's magic number. */
  private static final int HEAD_BYTES = 8 * 1024;

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
      count(purpose, new Answer.Ended(refused));
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
    var memory = new ByteArrayOutputStream();
    return switch (guarded(url, purpose, headers, () -> memory)) {
      case Answer.Kept kept ->
        new FetchResult.Fetched(
            memory.toByteArray(), kept.contentType(), kept.from(), kept.validators());
      case Answer.Ended ended -> ended.result();
    };
  }

  /**
   * Fetches {@code url} as {@link #fetch(URI, FetchPurpose, Map)} does, with the same guards, but
   * streams the body to a new file in {@code directory} instead of holding it in memory, and hands
   * {@code use} what came of it. The file lives only while {@code use} runs: it is deleted when
   * {@code use} returns or throws, and at once when the fetch does not keep a body (a body past the
   * byte limit stops being read and its partial file is deleted before {@code use} sees "too large").
   * Never throws for what the URL or its server does; a directory that cannot be written is a
   * {@link FetchResult.Failed}.
   */
  public <R> R fetchToFile(
      URI url,
      FetchPurpose purpose,
      Map<String, String> headers,
      Path directory,
      Function<? super FileFetchResult, ? extends R> use) {
    Path file;
    try {
      Files.createDirectories(directory);
      file = Files.createTempFile(directory, "fetch-", ".part");
    } catch (IOException | UnsupportedOperationException e) {
      var failed = new FetchResult.Failed("cannot create a file in " + directory + ": " + e);
      count(purpose, new Answer.Ended(failed));
      return use.apply(failed);
    }
    try {
      // no CREATE: when a fetch that ran out of time is still writing, the file it would open has
      // been deleted already, and it fails instead of leaving a new one behind
      BodySink toFile = () -> Files.newOutputStream(
          file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
      FileFetchResult result = switch (guarded(url, purpose, headers, toFile)) {
        case Answer.Kept kept ->
          new FileFetchResult.Saved(
              file, kept.size(), kept.contentType(), kept.from(), kept.validators());
        case Answer.Ended ended -> {
          delete(file);
          yield ended.result();
        }
      };
      return use.apply(result);
    } finally {
      delete(file);
    }
  }

  /**
   * POSTs {@code body} to {@code url} for {@code purpose}, with {@code headers} (from code, never from
   * input), under the same address checks and deadline as a fetch. No redirect is followed: a 3xx is
   * the answer. Of the answer's body, at most the byte limit is read, and the connection is dropped
   * rather than drained past it. Never throws for what the URL or its server does.
   */
  public PostResult post(
      URI url, FetchPurpose purpose, Map<String, String> headers, byte[] body, String contentType) {
    var refusal = refusal(url);
    PostResult result;
    if (refusal != null) result = new PostResult.Refused(refusal);
    else {
      var current = new AtomicReference<@Nullable HttpPost>();
      var task = new FutureTask<>(() -> send(url, headers, body, contentType, current));
      Thread.ofVirtual().name("guarded-post").start(task);
      try {
        result = task.get(limits.total().toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        var request = current.get();
        if (request != null) request.cancel();
        task.cancel(true);
        result = new PostResult.Failed("no complete answer within " + limits.total());
      } catch (InterruptedException e) {
        var request = current.get();
        if (request != null) request.cancel();
        task.cancel(true);
        Thread.currentThread().interrupt();
        result = new PostResult.Failed("interrupted");
      } catch (ExecutionException e) {
        result = new PostResult.Failed(String.valueOf(e.getCause()));
      }
    }
    var of = Objects.requireNonNull(counters.get(purpose));
    var counter = switch (result) {
      case PostResult.Answered answered when answered.successful() -> of.fetched();
      case PostResult.Answered answered -> of.failed();
      case PostResult.Refused refused -> of.refused();
      case PostResult.Failed failed -> of.failed();
    };
    counter.increment();
    return result;
  }

  private PostResult send(
      URI url,
      Map<String, String> headers,
      byte[] body,
      String contentType,
      AtomicReference<@Nullable HttpPost> current) {
    var request = new HttpPost(url);
    request.setHeader("Accept-Encoding", "identity");
    headers.forEach(request::setHeader);
    request.setEntity(new ByteArrayEntity(body, ContentType.parse(contentType)));
    current.set(request);
    var answered = new AtomicReference<PostResult.@Nullable Answered>();
    try {
      return client.execute(request, response -> {
        var entity = response.getEntity();
        byte[] head = new byte[0];
        if (entity != null) {
          // not closed: closing would read the rest of a body past the limit
          InputStream in = entity.getContent();
          head = in.readNBytes((int) Math.min(limits.maxBytes(), HEAD_BYTES));
        }
        var answer = new PostResult.Answered(response.getCode(), head);
        answered.set(answer);
        request.cancel();
        return answer;
      });
    } catch (RefusedAddress e) {
      return new PostResult.Refused(e.reason());
    } catch (IOException | RuntimeException e) {
      var answer = answered.get();
      if (answer != null) return answer; // answered; only dropping the connection complained
      if (e.getCause() instanceof RefusedAddress refusedAddress)
        return new PostResult.Refused(refusedAddress.reason());
      return new PostResult.Failed(e.toString());
    }
  }

  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("could not delete the fetched file {}", file, e);
    }
  }

  /** One fetch under the deadline, counted; the body, if kept, went to {@code sink}. */
  private Answer guarded(
      URI url, FetchPurpose purpose, Map<String, String> headers, BodySink sink) {
    var current = new AtomicReference<@Nullable HttpGet>();
    var task = new FutureTask<>(() -> follow(url, purpose, headers, sink, current));
    Thread.ofVirtual().name("guarded-fetch").start(task);
    Answer answer;
    try {
      answer = task.get(limits.total().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      stop(task, current);
      answer = failed("no complete answer within " + limits.total());
    } catch (InterruptedException e) {
      stop(task, current);
      Thread.currentThread().interrupt();
      answer = failed("interrupted");
    } catch (ExecutionException e) {
      answer = failed(String.valueOf(e.getCause()));
    }
    count(purpose, answer);
    return answer;
  }

  private static Answer failed(String reason) {
    return new Answer.Ended(new FetchResult.Failed(reason));
  }

  private static Answer refused(String reason) {
    return new Answer.Ended(new FetchResult.Refused(reason));
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // closing pooled sockets: nothing to do about a failure
    }
  }

  private void count(FetchPurpose purpose, Answer answer) {
    var of = Objects.requireNonNull(counters.get(purpose));
    var counter = switch (answer) {
      case Answer.Kept k -> of.fetched();
      case Answer.Ended(FetchResult.NotModified n) -> of.notModified();
      case Answer.Ended(FetchResult.Refused r) -> of.refused();
      case Answer.Ended(FetchResult.Failed f) -> of.failed();
    };
    counter.increment();
  }

  private static void stop(FutureTask<?> task, AtomicReference<@Nullable HttpGet> current) {
    var request = current.get();
    if (request != null) request.cancel();
    task.cancel(true);
  }

  /** The hops of one fetch, each checked, until an answer that is not a redirect. */
  private Answer follow(
      URI start,
      FetchPurpose purpose,
      Map<String, String> headers,
      BodySink sink,
      AtomicReference<@Nullable HttpGet> current) {
    URI url = start;
    for (int hop = 0; ; hop++) {
      var refusal = refusal(url);
      if (refusal != null) return refused(refusal);
      var request = new HttpGet(url);
      request.setHeader("Accept", purpose.accept());
      request.setHeader("Accept-Encoding", "identity");
      headers.forEach(request::setHeader);
      current.set(request);
      var answered = new AtomicReference<@Nullable Hop>();
      Hop answer;
      try {
        answer = client.execute(request, response -> {
          Hop read = read(response, purpose, sink);
          answered.set(read);
          // a body not read to its end (refused, a redirect's, an error's) is not drained for the
          // connection's reuse: dropping the connection stops the server's bytes at once
          if (!(read instanceof Hop.Body)) request.cancel();
          return read;
        });
      } catch (RefusedAddress e) {
        return refused(e.reason());
      } catch (IOException | RuntimeException e) {
        Hop read = answered.get();
        if (read != null) answer = read; // the answer was complete; only dropping it complained
        else if (e.getCause() instanceof RefusedAddress refusedAddress)
          return refused(refusedAddress.reason());
        else return failed(e.toString());
      }
      switch (answer) {
        case Hop.Done done -> {
          return new Answer.Ended(done.result());
        }
        case Hop.Body body -> {
          return new Answer.Kept(body.size(), body.contentType(), url, body.validators());
        }
        case Hop.Redirect redirect -> {
          if (hop >= limits.maxRedirects())
            return refused("more than " + limits.maxRedirects() + " redirects");
          try {
            url = url.resolve(new URI(redirect.location()));
          } catch (URISyntaxException | IllegalArgumentException e) {
            return failed("a redirect to something that is not a URL");
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

  /** Where an accepted body goes as it arrives: memory or a file. */
  @FunctionalInterface
  private interface BodySink {
    /** Opened once per fetch, for the answer whose body is kept, after its first bytes passed. */
    OutputStream open() throws IOException;
  }

  /** What a whole fetch came to, before it is told as {@link FetchResult} or {@link FileFetchResult}. */
  private sealed interface Answer {
    /** The body went whole to the sink. */
    record Kept(long size, String contentType, URI from, Map<String, String> validators)
        implements Answer {}

    record Ended(FetchResult.NoBody result) implements Answer {}
  }

  /** What one hop's answer came to. */
  private sealed interface Hop {
    record Done(FetchResult.NoBody result) implements Hop {}

    record Redirect(String location) implements Hop {}

    /** The body, {@code size} bytes, went whole to the sink. */
    record Body(long size, String contentType, Map<String, String> validators) implements Hop {}
  }

  private Hop read(ClassicHttpResponse response, FetchPurpose purpose, BodySink sink)
      throws IOException {
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
    if (declared > limits.maxBytes()) return tooLarge();
    // not closed when the body is refused part way: closing would read it to its end
    InputStream in = entity.getContent();
    byte[] head = in.readNBytes((int) Math.min(HEAD_BYTES, limits.maxBytes() + 1));
    if (head.length > limits.maxBytes()) return tooLarge();
    if (!purpose.acceptsBody(head))
      return new Hop.Done(new FetchResult.Refused("the body is not what its content type says"));
    long size = head.length;
    try (OutputStream out = sink.open()) {
      out.write(head);
      byte[] buffer = new byte[64 * 1024];
      // the limit is checked on what arrived before it is kept, so a body never grows past it
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        size += n;
        if (size > limits.maxBytes()) return tooLarge();
        out.write(buffer, 0, n);
      }
    }
    in.close();
    var validators = new LinkedHashMap<String, String>();
    for (String name : List.of("ETag", "Last-Modified")) {
      Header header = response.getFirstHeader(name);
      // a validator is sent back as a header: one line, and not without bound
      if (header != null
          && header.getValue() != null
          && header.getValue().length() <= 1024
          && header.getValue().chars().noneMatch(c -> c < 0x20 || c == 0x7f))
        validators.put(name, header.getValue());
    }
    return new Hop.Body(size, type, validators);
  }

  private Hop tooLarge() {
    return new Hop.Done(new FetchResult.Refused("larger than " + limits.maxBytes() + " bytes"));
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
