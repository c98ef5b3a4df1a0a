package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.Address;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An AMQP URL naming one broker node or several of one cluster:
 * {@code amqp://user:pass@h1:5672,h2:5673,h3:5674/vhost} (host names or IPv4 addresses: a URL holds
 * an IPv6 address only as its single host). The nodes share the credentials, the
 * virtual host and the query; a connection goes to one of them and, when that node is lost, recovery
 * tries them all again in a new random order.
 *
 * @param nodes every node, in the order the URL lists them
 * @param firstNode the URL with only the first node: what the client reads credentials, virtual host
 *     and TLS from
 */
public record AmqpAddresses(List<Address> nodes, URI firstNode) {
  public AmqpAddresses {
    nodes = List.copyOf(nodes);
    if (nodes.isEmpty()) throw new IllegalArgumentException("no node");
  }

  /**
   * Reads {@code url}; a wrong one is refused with a message that never shows its password.
   *
   * @throws IllegalArgumentException when it is not an amqp or amqps URL with at least one host
   */
  public static AmqpAddresses parse(URI url) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("amqp") && !scheme.equals("amqps"))
      throw new IllegalArgumentException("expected an amqp or amqps URL");
    String authority = url.getRawAuthority();
    if (authority == null || authority.isBlank())
      throw new IllegalArgumentException("expected at least one host after amqp://");
    int at = authority.lastIndexOf('@');
    String userInfo = at < 0 ? null : authority.substring(0, at);
    int defaultPort = scheme.equals("amqps") ? 5671 : 5672;
    var nodes = new ArrayList<Address>();
    for (String node : authority.substring(at + 1).split(",", -1))
      nodes.add(node(node, defaultPort));
    Address first = nodes.getFirst();
    String host = first.getHost().contains(":") ? "[" + first.getHost() + "]" : first.getHost();
    String single = scheme + "://" + (userInfo == null ? "" : userInfo + "@") + host + ":"
        + first.getPort()
        + (url.getRawPath() == null ? "" : url.getRawPath())
        + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
    try {
      return new AmqpAddresses(nodes, new URI(single));
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL once split by node (" + e.getReason() + ")");
    }
  }

  private static Address node(String text, int defaultPort) {
    String node = text.strip();
    if (node.isEmpty())
      throw new IllegalArgumentException(
          "an empty host in the list of nodes (host:port,host:port)");
    String host;
    String port;
    if (node.startsWith("[")) {
      int close = node.indexOf(']');
      if (close < 0) throw new IllegalArgumentException("an IPv6 host without its closing ']'");
      host = node.substring(1, close);
      String rest = node.substring(close + 1);
      if (!rest.isEmpty() && !rest.startsWith(":"))
        throw new IllegalArgumentException("expected :port after [" + host + "]");
      port = rest.isEmpty() ? "" : rest.substring(1);
    } else {
      int colon = node.indexOf(':');
      host = colon < 0 ? node : node.substring(0, colon);
      port = colon < 0 ? "" : node.substring(colon + 1);
    }
    if (host.isEmpty() || !host.matches("[A-Za-z0-9._:%-]+"))
      throw new IllegalArgumentException("'" + host + "' is not a host name or address");
    if (port.isEmpty()) return new Address(host, defaultPort);
    try {
      int number = Integer.parseInt(port);
      if (number < 1 || number > 65_535) throw new NumberFormatException();
      return new Address(host, number);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + port + "' is not a port of host " + host);
    }
  }

  /** The nodes as {@code host:port,host:port}: no credentials, fit for logs and messages. */
  public String describe() {
    var text = new StringBuilder();
    for (Address node : nodes) {
      if (!text.isEmpty()) text.append(',');
      text.append(node.getHost().contains(":") ? "[" + node.getHost() + "]" : node.getHost())
          .append(':')
          .append(node.getPort());
    }
    return text.toString();
  }
}
