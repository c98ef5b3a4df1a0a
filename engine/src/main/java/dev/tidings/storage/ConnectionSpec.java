package dev.tidings.storage;

import dev.tidings.config.Secret;
import dev.tidings.config.Settings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a {@link Database} connects and how big its pool is. The URL may name several servers
 * ({@code jdbc:postgresql://h1:5432,h2:5432/db}); the driver then tries them in order and keeps the
 * one of the wanted kind, so a node follows a promoted standby without being told.
 */
public record ConnectionSpec(
    String jdbcUrl, Optional<String> user, Optional<String> password, String schema, int poolSize) {

  public static final String DEFAULT_SCHEMA = "public";

  private static final String PREFIX = "jdbc:postgresql://";

  /** Which servers of a multi-host URL a pool wants, when the URL does not say. */
  public enum Role {
    /** Writes: only a primary; a standby not yet promoted is refused at connect. */
    PRIMARY("primary"),
    /** Reads that may lag: a standby when one answers, else the primary. */
    READ("preferSecondary");

    private final String targetServerType;

    Role(String targetServerType) {
      this.targetServerType = targetServerType;
    }
  }

  /**
   * What the driver is told when the URL leaves it out. A dead server must be noticed in seconds: a
   * connection attempt gives up after {@code connectTimeout}, a read that hears nothing for
   * {@code socketTimeout} breaks the connection (the pool then drops it), keep-alives let the kernel
   * notice a peer that vanished, and which server is primary is checked again after
   * {@code hostRecheckSeconds} rather than remembered for the driver's default 10 s. Migrations run
   * on a connection without the socket timeout (an index build may take longer).
   */
  static final Map<String, String> DRIVER_DEFAULTS = orderedDefaults();

  private static Map<String, String> orderedDefaults() {
    var defaults = new LinkedHashMap<String, String>();
    defaults.put("connectTimeout", "5");
    defaults.put("loginTimeout", "10");
    defaults.put("socketTimeout", "30");
    defaults.put("tcpKeepAlive", "true");
    defaults.put("hostRecheckSeconds", "2");
    return Collections.unmodifiableMap(defaults);
  }

  public static ConnectionSpec from(Settings settings, String jdbcUrl) {
    return new ConnectionSpec(
        jdbcUrl,
        settings.dbUser(),
        settings.dbPassword().map(Secret::value),
        DEFAULT_SCHEMA,
        settings.dbPoolSize());
  }

  public ConnectionSpec withSchema(String otherSchema) {
    return new ConnectionSpec(jdbcUrl, user, password, otherSchema, poolSize);
  }

  public ConnectionSpec withPoolSize(int otherPoolSize) {
    return new ConnectionSpec(jdbcUrl, user, password, schema, otherPoolSize);
  }

  /** The servers the URL names, as {@code host:port} (5432 when left out). */
  public List<String> hosts() {
    return hostsOf(jdbcUrl);
  }

  /**
   * The URL a pool of {@code role} connects with: {@link #DRIVER_DEFAULTS} and, for several hosts,
   * the role's {@code targetServerType}, each only where the URL does not set its own.
   */
  public String pooledUrl(Role role) {
    var added = new LinkedHashMap<String, String>(DRIVER_DEFAULTS);
    if (hosts().size() > 1) added.put("targetServerType", role.targetServerType);
    return withParameters(jdbcUrl, added);
  }

  /** As {@link #pooledUrl(Role)} without the socket timeout, for migrations and listeners. */
  public String unboundedUrl(Role role) {
    var added = new LinkedHashMap<String, String>(DRIVER_DEFAULTS);
    added.put("socketTimeout", "0");
    if (hosts().size() > 1) added.put("targetServerType", role.targetServerType);
    return withParameters(jdbcUrl, added);
  }

  /** The URL for logs and the system page: user info and passwords masked. */
  public String describe() {
    return mask(jdbcUrl) + " (schema " + schema + ")";
  }

  static String mask(String url) {
    return url.replaceAll("(//[^:/@,]+):[^@/]*@", "$1:<masked>@")
        .replaceAll("(?i)(password=)[^&]*", "$1<masked>");
  }

  private static List<String> hostsOf(String jdbcUrl) {
    if (!jdbcUrl.startsWith(PREFIX)) return List.of();
    String rest = jdbcUrl.substring(PREFIX.length());
    int at = rest.indexOf('@');
    int end = rest.indexOf('/');
    if (at >= 0 && (end < 0 || at < end)) {
      rest = rest.substring(at + 1);
      end = rest.indexOf('/');
    }
    if (end < 0) end = rest.indexOf('?') < 0 ? rest.length() : rest.indexOf('?');
    var hosts = new ArrayList<String>();
    for (String host : rest.substring(0, end).split(",")) {
      if (host.isBlank()) continue;
      boolean hasPort = host.startsWith("[") ? host.contains("]:") : host.contains(":");
      hosts.add(hasPort ? host : host + ":5432");
    }
    return List.copyOf(hosts);
  }

  private static String withParameters(String url, Map<String, String> defaults) {
    int query = url.indexOf('?');
    var present = new HashSet<String>();
    if (query >= 0) {
      for (String pair : url.substring(query + 1).split("&")) {
        int equals = pair.indexOf('=');
        present.add((equals < 0 ? pair : pair.substring(0, equals)).toLowerCase(Locale.ROOT));
      }
    }
    var added = new ArrayList<String>();
    defaults.forEach((name, value) -> {
      if (!present.contains(name.toLowerCase(Locale.ROOT))) added.add(name + "=" + value);
    });
    if (added.isEmpty()) return url;
    String joined = String.join("&", added);
    if (query < 0) return url + "?" + joined;
    return url.endsWith("?") || url.endsWith("&") ? url + joined : url + "&" + joined;
  }
}
