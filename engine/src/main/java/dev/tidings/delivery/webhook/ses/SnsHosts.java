package dev.tidings.delivery.webhook.ses;

import dev.tidings.delivery.webhook.WebhookRefused;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The only URLs a message may make us fetch: https on an SNS regional host ({@code
 * sns.<region>.amazonaws.com}, or {@code .amazonaws.com.cn}), default port, no user info. Without
 * this check anyone could sign a message with their own certificate and point us at it.
 */
public final class SnsHosts {
  private static final Pattern HOST = Pattern.compile("sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?");

  private SnsHosts() {}

  /** The signing certificate's URL, which must also name a {@code .pem} file. */
  public static URI certificateUrl(String url) {
    URI uri = allowListed(url, "SigningCertURL");
    String path = uri.getPath();
    if (path == null || !path.endsWith(".pem") || uri.getRawQuery() != null)
      throw WebhookRefused.unauthenticated(
          "SigningCertURL must name a .pem file on an SNS host but was " + url);
    return uri;
  }

  /** The URL a subscription is confirmed at. */
  public static URI subscribeUrl(String url) {
    URI uri = allowListed(url, "SubscribeURL");
    String query = uri.getRawQuery();
    if (query == null || !query.contains("Action=ConfirmSubscription"))
      throw WebhookRefused.forbidden(
          "SubscribeURL must be an SNS ConfirmSubscription action but was " + url);
    return uri;
  }

  private static URI allowListed(String url, String field) {
    try {
      URI uri = new URI(url);
      String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
      if ("https".equalsIgnoreCase(uri.getScheme())
          && HOST.matcher(host).matches()
          && (uri.getPort() == -1 || uri.getPort() == 443)
          && uri.getRawUserInfo() == null
          && uri.getRawFragment() == null) return uri;
    } catch (URISyntaxException e) {
      // refused below like any other URL off the list
    }
    throw WebhookRefused.unauthenticated(
        field + " is not on the allow-list (https://sns.<region>.amazonaws.com/...): " + url);
  }
}
