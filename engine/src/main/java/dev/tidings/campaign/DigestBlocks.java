package dev.tidings.campaign;

import dev.tidings.HtmlText;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The notifications of a digest as Tidings writes them when the template does not place them itself: a
 * list of cards (picture, title linked to its page, why it is here) before the end of the HTML body, and
 * numbered lines at the end of the text part. Titles and links are escaped here; links were checked as
 * http(s) when the content was stored.
 */
final class DigestBlocks {
  private DigestBlocks() {}

  static String insertHtml(String body, List<Map<String, Object>> notifications) {
    var block = new StringBuilder(256 + notifications.size() * 400);
    block.append("<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\""
        + " style=\"width:100%;max-width:600px;border-collapse:collapse\">");
    for (var item : notifications) {
      Object url = item.get("url");
      Object image = item.get("imageUrl");
      block.append("<tr><td style=\"padding:8px 0;border-bottom:1px solid #e5e5e5\">");
      if (image != null) {
        open(block, url);
        block
            .append("<img src=\"")
            .append(HtmlText.escape(image.toString()))
            .append("\" width=\"96\" alt=\"\" style=\"float:left;margin-right:12px;border:0\">");
        close(block, url);
      }
      block.append("<div style=\"font-weight:bold\">");
      open(block, url);
      block.append(HtmlText.escape(String.valueOf(item.get("title"))));
      close(block, url);
      block
          .append("</div><div style=\"font-size:12px;color:#666\">")
          .append(why(item))
          .append("</div></td></tr>");
    }
    block.append("</table>");
    int end = CampaignRenderer.lastIndexOfIgnoreCase(body, "</body>");
    return end < 0 ? body + block : body.substring(0, end) + block + body.substring(end);
  }

  static String appendText(String body, List<Map<String, Object>> notifications) {
    var out = new StringBuilder(body.length() + notifications.size() * 120).append(body);
    out.append("\n\n");
    for (var item : notifications) {
      out.append(item.get("number")).append(". ").append(item.get("title"));
      Object url = item.get("url");
      if (url != null) out.append("\n   ").append(url);
      out.append('\n');
    }
    return out.toString();
  }

  private static String why(Map<String, Object> item) {
    // a journey's cards say why the reader sees them; a digest's say what is new
    switch (String.valueOf(item.get("kind"))) {
      case "carted" -> {
        return "In your cart";
      }
      case "viewed" -> {
        return "You looked at this";
      }
      case "back_in_stock" -> {
        return "Back in stock";
      }
      case "price_dropped" -> {
        return "Now for less";
      }
      case "bought" -> {
        return "You bought this";
      }
      default -> {}
    }
    String type = String.valueOf(item.get("type"));
    String what = switch (type) {
      case "product" -> "New product";
      case "artwork" -> "New artwork";
      case "article" -> "New article";
      case "show" -> "Show";
      case "event" -> "Event";
      default -> "New";
    };
    return Boolean.TRUE.equals(item.get("nearby")) ? what + " near you" : what;
  }

  private static void open(StringBuilder block, @Nullable Object url) {
    if (url != null)
      block
          .append("<a href=\"")
          .append(HtmlText.escape(url.toString()))
          .append("\" style=\"color:#1a1a1a;text-decoration:none\">");
  }

  private static void close(StringBuilder block, @Nullable Object url) {
    if (url != null) block.append("</a>");
  }
}
