package dev.tidings.web.opentime;

import dev.tidings.opentime.Engagement.SourceClass;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** What a request says about who made it: its user agent and the class of its source address. */
final class Requesters {
  private static final int MAX_USER_AGENT = 300;

  private Requesters() {}

  static String userAgent(ServerRequest request) {
    String agent = request.headers().first(HeaderNames.USER_AGENT).orElse("");
    return agent.length() > MAX_USER_AGENT ? agent.substring(0, MAX_USER_AGENT) : agent;
  }

  static SourceClass source(ServerRequest request) {
    try {
      // a literal address: no lookup happens
      InetAddress address = InetAddress.getByName(request.remotePeer().host());
      if (address.isLoopbackAddress()) return SourceClass.LOOPBACK;
      if (address.isSiteLocalAddress() || address.isLinkLocalAddress() || uniqueLocal(address))
        return SourceClass.PRIVATE;
      return SourceClass.PUBLIC;
    } catch (UnknownHostException | RuntimeException e) {
      return SourceClass.UNKNOWN;
    }
  }

  /** IPv6 fc00::/7, which Java does not count as site-local. */
  private static boolean uniqueLocal(InetAddress address) {
    byte[] bytes = address.getAddress();
    return bytes.length == 16 && (bytes[0] & 0xfe) == 0xfc;
  }
}
