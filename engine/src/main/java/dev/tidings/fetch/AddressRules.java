package dev.tidings.fetch;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses a fetch of a URL from input may reach: public unicast only. Loopback, private and
 * unique-local, link-local (the cloud metadata service at 169.254.169.254 among them), carrier-grade
 * NAT, multicast, unspecified, broadcast, documentation, benchmarking and reserved ranges are
 * refused, and so is an IPv6 address that carries one of those IPv4 addresses inside it (mapped,
 * compatible, 6to4, NAT64), since the network may route it there.
 */
public final class AddressRules {
  /** Why an address may not be fetched from: a word fit for a log line or a metric label. */
  public enum Kind {
    PUBLIC,
    LOOPBACK,
    PRIVATE,
    LINK_LOCAL,
    SHARED,
    MULTICAST,
    UNSPECIFIED,
    BROADCAST,
    DOCUMENTATION,
    RESERVED
  }

  private record Range(Cidr cidr, Kind kind) {}

  private static final List<Range> V4 = List.of(
      range("0.0.0.0/8", Kind.UNSPECIFIED),
      range("10.0.0.0/8", Kind.PRIVATE),
      range("100.64.0.0/10", Kind.SHARED),
      range("127.0.0.0/8", Kind.LOOPBACK),
      range("169.254.0.0/16", Kind.LINK_LOCAL),
      range("172.16.0.0/12", Kind.PRIVATE),
      range("192.0.0.0/24", Kind.RESERVED),
      range("192.0.2.0/24", Kind.DOCUMENTATION),
      range("192.31.196.0/24", Kind.RESERVED),
      range("192.52.193.0/24", Kind.RESERVED),
      range("192.88.99.0/24", Kind.RESERVED),
      range("192.168.0.0/16", Kind.PRIVATE),
      range("192.175.48.0/24", Kind.RESERVED),
      range("198.18.0.0/15", Kind.RESERVED),
      range("198.51.100.0/24", Kind.DOCUMENTATION),
      range("203.0.113.0/24", Kind.DOCUMENTATION),
      range("224.0.0.0/4", Kind.MULTICAST),
      range("255.255.255.255/32", Kind.BROADCAST),
      range("240.0.0.0/4", Kind.RESERVED));

  private static final List<Range> V6 = List.of(
      range("::/128", Kind.UNSPECIFIED),
      range("::1/128", Kind.LOOPBACK),
      range("100::/64", Kind.RESERVED),
      range("64:ff9b:1::/48", Kind.PRIVATE),
      range("2001::/32", Kind.RESERVED), // Teredo: the IPv4 inside is obfuscated, refuse it whole
      range("2001:2::/48", Kind.RESERVED),
      range("2001:10::/28", Kind.RESERVED),
      range("2001:20::/28", Kind.RESERVED),
      range("2001:db8::/32", Kind.DOCUMENTATION),
      range("3fff::/20", Kind.DOCUMENTATION),
      range("fc00::/7", Kind.PRIVATE),
      range("fe80::/10", Kind.LINK_LOCAL),
      range("fec0::/10", Kind.PRIVATE),
      range("ff00::/8", Kind.MULTICAST));

  private static final Cidr GLOBAL_UNICAST_V6 = Cidr.parse("2000::/3");
  private static final Cidr MAPPED = Cidr.parse("::ffff:0:0/96");
  private static final Cidr COMPATIBLE = Cidr.parse("::/96");
  private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");
  private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");

  private AddressRules() {}

  public static Kind classify(InetAddress address) {
    return classify(address.getAddress());
  }

  public static boolean isPublic(InetAddress address) {
    return classify(address) == Kind.PUBLIC;
  }

  static Kind classify(byte[] bytes) {
    if (bytes.length == 4) return classifyV4(bytes);
    var embedded = embeddedV4(bytes);
    if (embedded.isPresent()) {
      var kind = classifyV4(embedded.get());
      // ::1 and :: are IPv6's own loopback and unspecified, not IPv4-compatible forms
      if (kind != Kind.PUBLIC || !COMPATIBLE.contains(bytes)) return kind;
      return Kind.RESERVED; // IPv4-compatible addresses are deprecated: nothing public uses them
    }
    for (var range : V6) if (range.cidr().contains(bytes)) return range.kind();
    return GLOBAL_UNICAST_V6.contains(bytes) ? Kind.PUBLIC : Kind.RESERVED;
  }

  private static Kind classifyV4(byte[] bytes) {
    for (var range : V4) if (range.cidr().contains(bytes)) return range.kind();
    return Kind.PUBLIC;
  }

  /** The IPv4 address an IPv6 address carries in a form the network may route to it. */
  private static Optional<byte[]> embeddedV4(byte[] v6) {
    if (MAPPED.contains(v6) || NAT64.contains(v6))
      return Optional.of(Arrays.copyOfRange(v6, 12, 16));
    if (COMPATIBLE.contains(v6)) {
      // :: and ::1 are checked as IPv6 below, not as 0.0.0.0 and 0.0.0.1
      if (isZeroUpTo(v6, 15) && (v6[15] == 0 || v6[15] == 1)) return Optional.empty();
      return Optional.of(Arrays.copyOfRange(v6, 12, 16));
    }
    if (SIX_TO_FOUR.contains(v6)) return Optional.of(Arrays.copyOfRange(v6, 2, 6));
    return Optional.empty();
  }

  private static boolean isZeroUpTo(byte[] bytes, int end) {
    for (int i = 0; i < end; i++) if (bytes[i] != 0) return false;
    return true;
  }

  private static Range range(String cidr, Kind kind) {
    return new Range(Cidr.parse(cidr), kind);
  }
}
