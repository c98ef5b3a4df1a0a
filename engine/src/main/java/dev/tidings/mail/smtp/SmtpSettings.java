package dev.tidings.mail.smtp;

import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how to reach the SMTP server, read from {@code TIDINGS_SMTP_URL}:
 * {@code smtp://[user[:password]@]host[:port][?option=value&...]} or {@code smtps://...} (TLS from the
 * first byte). Options: {@code starttls=true} (require STARTTLS), {@code pool=N} (connections kept
 * open), {@code connectTimeoutMs=N}, {@code readTimeoutMs=N}, {@code writeTimeoutMs=N} (each one
 * socket operation), {@code sendTimeoutMs=N} (one whole send: waiting for a connection, connecting,
 * a retry and the message data), {@code helo=name}. An unknown option is an error, so a typo cannot
 * silently turn TLS off. {@code provider}: whose correlation headers outgoing mail carries.
 */
public record SmtpSettings(
    String host,
    int port,
    boolean implicitTls,
    boolean startTls,
    Optional<String> user,
    Optional<Secret> password,
    Duration connectTimeout,
    Duration readTimeout,
    Duration writeTimeout,
    Duration sendTimeout,
    int poolSize,
    Optional<String> heloName,
    ProviderHeaders provider) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_POOL_SIZE = 4;

  public SmtpSettings {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(heloName, "heloName");
    Objects.requireNonNull(provider, "provider");
    if (host.isBlank()) throw new IllegalArgumentException("SMTP host is empty");
    if (port < 1 || port > 65535)
      throw new IllegalArgumentException("SMTP port out of range: " + port);
    if (implicitTls && startTls)
      throw new IllegalArgumentException("smtps:// is TLS already; starttls=true contradicts it");
    if (poolSize < 1 || poolSize > 64)
      throw new IllegalArgumentException("SMTP pool size must be 1..64, was " + poolSize);
    for (var timeout : new Duration[] {connectTimeout, readTimeout, writeTimeout, sendTimeout}) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(
            "SMTP timeouts must be positive (0 would mean wait forever)");
      }
    }
  }

  public static SmtpSettings fromUrl(URI url) {
    String scheme = Objects.requireNonNull(url, "url").getScheme();
    boolean implicitTls;
    if ("smtp".equalsIgnoreCase(scheme)) implicitTls = false;
    else if ("smtps".equalsIgnoreCase(scheme)) implicitTls = true;
    else
      throw new IllegalArgumentException(
          "SMTP URL must start with smtp:// or smtps://, was " + masked(url));
    String host = url.getHost();
    if (host == null) throw new IllegalArgumentException("SMTP URL has no host: " + masked(url));
    int port = url.getPort() > 0 ? url.getPort() : implicitTls ? 465 : 25;

    Optional<String> user = Optional.empty();
    Optional<Secret> password = Optional.empty();
    String userInfo = url.getRawUserInfo();
    if (userInfo != null && !userInfo.isEmpty()) {
      int colon =
          userInfo.indexOf(':'); // split before decoding: an encoded %3A belongs to the user name
      user = Optional.of(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
      if (colon >= 0) password = Optional.of(new Secret(decode(userInfo.substring(colon + 1))));
    }

    boolean startTls = false;
    int pool = DEFAULT_POOL_SIZE;
    Duration connect = DEFAULT_CONNECT_TIMEOUT,
        read = DEFAULT_READ_TIMEOUT,
        write = DEFAULT_WRITE_TIMEOUT,
        send = DEFAULT_SEND_TIMEOUT;
    Optional<String> helo = Optional.empty();
    String query = url.getRawQuery();
    if (query != null && !query.isEmpty()) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        String name = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        switch (name) {
          case "starttls" -> startTls = parseBoolean(name, value);
          case "pool" -> pool = parseInt(name, value);
          case "connectTimeoutMs" -> connect = Duration.ofMillis(parseInt(name, value));
          case "readTimeoutMs" -> read = Duration.ofMillis(parseInt(name, value));
          case "writeTimeoutMs" -> write = Duration.ofMillis(parseInt(name, value));
          case "sendTimeoutMs" -> send = Duration.ofMillis(parseInt(name, value));
          case "helo" -> helo = Optional.of(value);
          default ->
            throw new IllegalArgumentException("unknown SMTP URL option '" + name
                + "' (known: starttls, pool, connectTimeoutMs, readTimeoutMs, writeTimeoutMs,"
                + " sendTimeoutMs, helo)");
        }
      }
    }
    return new SmtpSettings(
        host,
        port,
        implicitTls,
        startTls,
        user,
        password,
        connect,
        read,
        write,
        send,
        pool,
        helo,
        ProviderHeaders.forHost(host));
  }

  /** These settings with the provider {@code TIDINGS_SMTP_PROVIDER} chose ({@code auto}: the host's). */
  public SmtpSettings withProvider(Settings.SmtpProvider choice) {
    return new SmtpSettings(
        host,
        port,
        implicitTls,
        startTls,
        user,
        password,
        connectTimeout,
        readTimeout,
        writeTimeout,
        sendTimeout,
        poolSize,
        heloName,
        ProviderHeaders.chosen(choice, host));
  }

  /** The URL without its password, for logs and /health. */
  public String describe() {
    var text = new StringBuilder(implicitTls ? "smtps://" : "smtp://");
    user.ifPresent(name -> text.append(name).append(password.isPresent() ? ":<masked>@" : "@"));
    text.append(host).append(':').append(port);
    if (startTls) text.append(" (STARTTLS required)");
    return text.append(" pool ").append(poolSize).toString();
  }

  /** Percent-decoding that keeps '+' (a literal plus in a URL's user info, not a space). */
  private static String decode(String raw) {
    return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static boolean parseBoolean(String name, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "1", "" -> true;
      case "false", "no", "0" -> false;
      default ->
        throw new IllegalArgumentException(
            "SMTP URL option " + name + " must be true or false, was '" + value + "'");
    };
  }

  private static int parseInt(String name, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "SMTP URL option " + name + " must be a whole number, was '" + value + "'", e);
    }
  }

  private static String masked(URI url) {
    return url.toString().replaceAll("(//[^:/@]+):[^@/]*@", "$1:<masked>@");
  }
}
