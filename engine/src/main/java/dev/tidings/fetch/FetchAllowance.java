package dev.tidings.fetch;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The addresses a fetch may reach although {@link AddressRules} refuses them: the {@code
 * TIDINGS_FETCH_ALLOW} setting, comma-separated. An entry is a range ({@code 10.20.0.0/16}, {@code
 * fd00:1::/32}), one address ({@code 10.20.0.7}, optionally with a port: {@code 10.20.0.7:8080},
 * {@code [fd00::7]:8080}) or a host name ({@code images.internal}, optionally {@code
 * images.internal:8443}), which lets through whatever that name resolves to when a URL names it.
 */
public record FetchAllowance(List<Entry> entries) {
  /** What one entry lets through. */
  public sealed interface Entry {
    boolean allows(String host, InetAddress address, int port);
  }

  /** Any address in {@code range}, on {@code port} only when one is given. */
  public record Range(Cidr range, OptionalInt port) implements Entry {
    @Override
    public boolean allows(String host, InetAddress address, int port) {
      return range.contains(address) && (this.port.isEmpty() || this.port.getAsInt() == port);
    }
  }

  /** Whatever a URL naming {@code name} resolves to, on {@code port} only when one is given. */
  public record Host(String name, OptionalInt port) implements Entry {
    public Host {
      name = name.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean allows(String host, InetAddress address, int port) {
      return name.equalsIgnoreCase(trimDot(host))
          && (this.port.isEmpty() || this.port.getAsInt() == port);
    }
  }

  public FetchAllowance {
    entries = List.copyOf(entries);
  }

  public static FetchAllowance none() {
    return new FetchAllowance(List.of());
  }

  /** Every loopback and private address: for tests that fetch from a local server. */
  public static FetchAllowance everything() {
    return new FetchAllowance(List.of(
        new Range(Cidr.parse("0.0.0.0/0"), OptionalInt.empty()),
        new Range(Cidr.parse("::/0"), OptionalInt.empty())));
  }

  /** One address on one port: a node fetching from itself, and nothing else on its host. */
  public static FetchAllowance addressAndPort(InetAddress address, int port) {
    var bits = address.getAddress().length * 8;
    return new FetchAllowance(
        List.of(new Range(new Cidr(address.getAddress(), bits), OptionalInt.of(port))));
  }

  /**
   * The setting's value; an entry that is neither a range, an address nor a host name is an {@link
   * IllegalArgumentException} naming it.
   */
  public static FetchAllowance parse(String setting) {
    var entries = new ArrayList<Entry>();
    for (String raw : setting.split(",", -1)) {
      String entry = raw.trim();
      if (entry.isEmpty()) continue;
      entries.add(entry(entry));
    }
    return new FetchAllowance(entries);
  }

  public FetchAllowance plus(FetchAllowance other) {
    var all = new ArrayList<>(entries);
    all.addAll(other.entries);
    return new FetchAllowance(all);
  }

  /** The entries as the setting writes them. */
  public String describe() {
    var parts = new ArrayList<String>();
    for (var entry : entries) {
      parts.add(
          switch (entry) {
            case Range range
            when range.range().prefix() == range.range().network().length * 8 ->
              address(range)
                  + range.port().stream().mapToObj(p -> ":" + p).findFirst().orElse("");
            case Range range -> range.range().toString();
            case Host host ->
              host.name()
                  + host.port().stream().mapToObj(p -> ":" + p).findFirst().orElse("");
          });
    }
    return String.join(",", parts);
  }

  private static String address(Range range) {
    String text = range.range().toString();
    String bare = text.substring(0, text.indexOf('/'));
    return bare.indexOf(':') >= 0 && range.port().isPresent() ? "[" + bare + "]" : bare;
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  public boolean allows(String host, InetAddress address, int port) {
    for (var entry : entries) if (entry.allows(host, address, port)) return true;
    return false;
  }

  private static Entry entry(String text) {
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0) throw new IllegalArgumentException("'" + text + "' has no closing ]");
      var cidr = Cidr.parse(text.substring(1, close));
      String rest = text.substring(close + 1);
      if (rest.isEmpty()) return new Range(cidr, OptionalInt.empty());
      if (!rest.startsWith(":"))
        throw new IllegalArgumentException("'" + text + "' is not ADDRESS]:PORT");
      return new Range(cidr, OptionalInt.of(port(text, rest.substring(1))));
    }
    if (text.indexOf('/') >= 0 || text.chars().filter(c -> c == ':').count() > 1)
      return new Range(Cidr.parse(text), OptionalInt.empty());
    int colon = text.indexOf(':');
    String host = colon < 0 ? text : text.substring(0, colon);
    OptionalInt port =
        colon < 0 ? OptionalInt.empty() : OptionalInt.of(port(text, text.substring(colon + 1)));
    if (!host.isEmpty() && host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9')))
      return new Range(Cidr.parse(host), port);
    if (!hostName(host))
      throw new IllegalArgumentException(
          "'" + text + "' is neither a CIDR range, an IP address nor a host name");
    return new Host(trimDot(host), port);
  }

  private static int port(String entry, String digits) {
    if (digits.isEmpty()
        || digits.length() > 5
        || !digits.chars().allMatch(c -> c >= '0' && c <= '9'))
      throw new IllegalArgumentException("'" + entry + "' has no port number after the :");
    int port = Integer.parseInt(digits);
    if (port < 1 || port > 65535)
      throw new IllegalArgumentException("'" + entry + "' has a port outside 1-65535");
    return port;
  }

  private static boolean hostName(String host) {
    if (host.isEmpty() || host.length() > 253) return false;
    for (String label : trimDot(host).split("\\.", -1)) {
      if (label.isEmpty() || label.length() > 63 || label.startsWith("-") || label.endsWith("-"))
        return false;
      for (int i = 0; i < label.length(); i++) {
        char c = label.charAt(i);
        if (!((c >= 'a' && c <= 'z')
            || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9')
            || c == '-')) return false;
      }
    }
    return true;
  }

  private static String trimDot(String host) {
    return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
  }
}
