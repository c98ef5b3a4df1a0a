package dev.tidings.config;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A Redis Cluster named by its seed nodes in one URL: {@code redis-cluster://host:port,host:port} (TLS:
 * {@code rediss-cluster://}), with an optional {@code user:password@} or {@code :password@} before the
 * first seed that holds for every node. Any one reachable seed is enough: the client reads the whole
 * topology from it. Parsed here once, so the settings check and the Redis adapter read the same form.
 *
 * @param password never printed: {@link Secret} masks it
 */
public record RedisClusterUrl(
    List<Seed> seeds, Optional<String> user, Optional<Secret> password, boolean tls) {
  public static final Set<String> SCHEMES = Set.of("redis-cluster", "rediss-cluster");

  /** One seed node. */
  public record Seed(String host, int port) {}

  public RedisClusterUrl {
    seeds = List.copyOf(seeds);
    if (seeds.isEmpty()) throw new IllegalArgumentException("a cluster URL needs a seed node");
  }

  /** True when {@code uri} names a cluster (by its scheme) rather than one Redis. */
  public static boolean names(URI uri) {
    return uri.getScheme() != null && SCHEMES.contains(uri.getScheme().toLowerCase(Locale.ROOT));
  }

  /**
   * The seeds and credentials of a cluster URL; a clear message, without the password, when it is not
   * one.
   */
  public static RedisClusterUrl parse(URI uri) {
    if (!names(uri))
      throw new IllegalArgumentException(
          "expected redis-cluster:// or rediss-cluster:// but was " + Settings.maskUserInfo(uri));
    String authority = uri.getRawAuthority();
    if (authority == null || authority.isEmpty())
      throw new IllegalArgumentException(
          "expected redis-cluster://host:port,host:port,... but was " + Settings.maskUserInfo(uri));
    Optional<String> user = Optional.empty();
    Optional<Secret> password = Optional.empty();
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      String userInfo = authority.substring(0, at);
      int colon = userInfo.indexOf(':');
      String name = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      if (!name.isEmpty()) user = Optional.of(name);
      if (colon >= 0) password = Optional.of(new Secret(decode(userInfo.substring(colon + 1))));
      authority = authority.substring(at + 1);
    }
    List<Seed> seeds = new ArrayList<>();
    for (String part : authority.split(",", -1)) seeds.add(seed(part.trim(), uri));
    String path = uri.getRawPath();
    if (path != null && !path.isEmpty() && !path.equals("/"))
      throw new IllegalArgumentException(
          "a Redis Cluster has only database 0, so its URL takes no path, but was "
              + Settings.maskUserInfo(uri));
    return new RedisClusterUrl(
        seeds, user, password, uri.getScheme().toLowerCase(Locale.ROOT).equals("rediss-cluster"));
  }

  private static Seed seed(String text, URI uri) {
    int colon = text.lastIndexOf(':');
    String host = colon < 0 ? "" : text.substring(0, colon);
    int port;
    try {
      port = colon < 0 ? -1 : Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (host.isEmpty() || port < 1 || port > 65_535)
      throw new IllegalArgumentException("every seed of a cluster URL is host:port (port 1-65535),"
          + " but one was '" + text + "' in " + Settings.maskUserInfo(uri));
    return new Seed(host, port);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
