package dev.tidings.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** An address range: the first {@code prefix} bits of {@code network}, IPv4 (4 bytes) or IPv6 (16). */
public record Cidr(byte[] network, int prefix) {
  public Cidr {
    network = network.clone();
    if (network.length != 4 && network.length != 16)
      throw new IllegalArgumentException("an address has 4 or 16 bytes");
    if (prefix < 0 || prefix > network.length * 8)
      throw new IllegalArgumentException("prefix must be from 0 to " + network.length * 8);
  }

  /**
   * {@code 10.0.0.0/8}, {@code fd00::/8}, or a single literal address ({@code /32} or {@code /128}).
   * Literals only: a name here would be looked up, which is not what a range means.
   */
  public static Cidr parse(String text) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    byte[] bytes = literal(address);
    int prefix = bytes.length * 8;
    if (slash >= 0) {
      String bits = text.substring(slash + 1);
      if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(c -> c >= '0' && c <= '9'))
        throw new IllegalArgumentException("'" + text + "' has no prefix length after the /");
      prefix = Integer.parseInt(bits);
      if (prefix > bytes.length * 8)
        throw new IllegalArgumentException(
            "'" + text + "' has a prefix longer than " + bytes.length * 8 + " bits");
    }
    return new Cidr(bytes, prefix);
  }

  /** The bytes of an IPv4 or IPv6 literal, refusing anything that would need a name lookup. */
  static byte[] literal(String text) {
    boolean v6 = text.indexOf(':') >= 0;
    boolean v4 =
        !v6 && !text.isEmpty() && text.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    if (v4 && text.chars().filter(c -> c == '.').count() != 3) v4 = false;
    if (v6) v6 = text.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0);
    if (!v4 && !v6) throw new IllegalArgumentException("'" + text + "' is not an IP address");
    try {
      // a literal of only digits, dots, colons and hex digits: getByName parses it, never a lookup
      byte[] bytes = InetAddress.getByName(text).getAddress();
      // Java reads an IPv4-mapped IPv6 literal as its IPv4 address; as a range it stays IPv6
      if (v6 && bytes.length == 4) {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(bytes, 0, mapped, 12, 4);
        return mapped;
      }
      return bytes;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("'" + text + "' is not an IP address", e);
    }
  }

  @Override
  public byte[] network() {
    return network.clone();
  }

  public boolean contains(InetAddress address) {
    return contains(address.getAddress());
  }

  public boolean contains(byte[] address) {
    if (address.length != network.length) return false;
    int full = prefix / 8;
    for (int i = 0; i < full; i++) if (address[i] != network[i]) return false;
    int rest = prefix % 8;
    if (rest == 0) return true;
    int mask = (0xff << (8 - rest)) & 0xff;
    return (address[full] & mask) == (network[full] & mask);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Cidr that
        && prefix == that.prefix
        && Arrays.equals(network, that.network);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(network) + prefix;
  }

  @Override
  public String toString() {
    try {
      return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
