package dev.tidings.campaign.editor;

import dev.tidings.HtmlText;
import dev.tidings.InvalidInputException;
import dev.tidings.JsonFields;
import dev.tidings.Problems;
import dev.tidings.message.MessageToken;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Template snippets for the {@link Block}s, as HTML for the HTML part and plain text for the text
 * part, in the variables {@link dev.tidings.campaign.CampaignRenderer} fills: each compiles wherever
 * a template may hold it. Pure; thread-safe.
 */
public final class CampaignBlocks {
  /** A snippet of both parts of a template. */
  public record Snippet(String html, String text) {}

  private CampaignBlocks() {}

  public static Snippet snippet(Block block) {
    return switch (block) {
      case Block.Slots slots -> slots(slots.count());
      case Block.Digest digest -> DIGEST;
      case Block.Button button -> button(button);
      case Block.Unsubscribe unsubscribe -> UNSUBSCRIBE;
    };
  }

  /**
   * Reads a block from the API's body: {@code {"type":"slots","count":3}}, {@code {"type":"digest"}},
   * {@code {"type":"button","label":..,"url":..}} or {@code {"type":"unsubscribe"}}.
   *
   * @throws InvalidInputException naming the field that is wrong
   */
  public static Block fromJson(@Nullable JsonNode node) {
    if (node == null || !node.isObject())
      throw new InvalidInputException("a block must be a JSON object with a type");
    var problems = new Problems();
    String type = JsonFields.string(problems, node.get("type"), "type");
    problems.throwIfAny();
    if (type == null) throw new InvalidInputException(TYPES);
    return switch (type) {
      case "slots" -> {
        Long count =
            JsonFields.whole(problems, node.get("count"), "count", 1, MessageToken.MAX_SLOTS);
        problems.throwIfAny();
        if (count == null)
          throw new InvalidInputException(
              "count must be a whole number within 1.." + MessageToken.MAX_SLOTS);
        yield new Block.Slots(count.intValue());
      }
      case "digest" -> new Block.Digest();
      case "unsubscribe" -> new Block.Unsubscribe();
      case "button" -> {
        String label = JsonFields.string(problems, node.get("label"), "label");
        String url = JsonFields.string(problems, node.get("url"), "url");
        if (label == null && !JsonFields.given(node.get("label")))
          problems.add("label must be 1-" + Block.Button.MAX_LABEL + " characters");
        if (url == null && !JsonFields.given(node.get("url")))
          problems.add("url must be an https URL");
        problems.throwIfAny();
        yield new Block.Button(Problems.toValidate(label), Problems.toValidate(url));
      }
      default -> throw new InvalidInputException(TYPES + " but was '" + type + "'");
    };
  }

  private static final String TYPES = "type must be one of slots, digest, button, unsubscribe";

  private static Snippet slots(int count) {
    // a template cannot count to close a table row every third slot: inline blocks wrap instead,
    // up to three a line on a wide screen, fewer on a phone
    var html = new StringBuilder(600);
    html.append(
            "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\""
                + " border=\"0\" style=\"max-width:600px\"><tr><td style=\"font-size:0;text-align:center\">")
        .append("{{#slots}}<div style=\"display:inline-block;width:")
        .append(count == 1 ? "100" : count == 2 ? "50" : "33")
        .append("%;min-width:160px;max-width:")
        .append(count == 1 ? "600" : count == 2 ? "300" : "200")
        .append(
            "px;vertical-align:top\"><a href=\"{{clickUrl}}\" style=\"display:block;padding:6px\">"
                + "<img src=\"{{imageUrl}}\" width=\"")
        .append(count == 1 ? "588" : count == 2 ? "288" : "188")
        .append(
            "\" alt=\"Pick {{number}}\" style=\"display:block;width:100%;height:auto;border:0\">"
                + "</a></div>{{/slots}}</td></tr></table>");
    String text = "{{#slots}}Pick {{number}}: {{clickUrl}}\n{{/slots}}";
    return new Snippet(html.toString(), text);
  }

  private static final Snippet DIGEST = new Snippet(
      "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\""
          + " style=\"max-width:600px\">{{#notifications}}<tr><td width=\"96\" valign=\"top\""
          + " style=\"padding:12px 12px 12px 0;border-bottom:1px solid #e5e5e0\">{{#imageUrl}}"
          + "<a href=\"{{url}}\"><img src=\"{{imageUrl}}\" width=\"96\" alt=\"\""
          + " style=\"display:block;width:96px;height:auto;border:0\"></a>{{/imageUrl}}</td>"
          + "<td valign=\"top\" style=\"padding:12px 0;border-bottom:1px solid #e5e5e0;"
          + "font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:22px\">"
          + "<a href=\"{{url}}\" style=\"color:#1a1a1a;font-weight:bold;text-decoration:none\">"
          + "{{title}}</a><br><span style=\"font-size:13px;color:#8a8a85\">{{#nearby}}Near you,"
          + " {{/nearby}}new on {{day}}</span></td></tr>{{/notifications}}</table>",
      "{{#notifications}}{{number}}. {{title}}\n   {{url}}\n{{/notifications}}");

  private static final Snippet UNSUBSCRIBE = new Snippet(
      "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\""
          + " style=\"max-width:600px\"><tr><td style=\"padding:24px 0;border-top:1px solid #e5e5e0;"
          + "font-family:Helvetica,Arial,sans-serif;font-size:12px;line-height:18px;color:#8a8a85\">"
          + "You get this email because you subscribed.<br><a href=\"{{unsubscribeUrl}}\""
          + " style=\"color:#8a8a85;text-decoration:underline\">Unsubscribe</a> with one click."
          + "</td></tr></table>",
      "--\nUnsubscribe: {{unsubscribeUrl}}\n");

  private static Snippet button(Block.Button button) {
    String label = HtmlText.escape(button.label());
    String url = HtmlText.escape(button.url());
    String html =
        "<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\"><tr>"
            + "<td align=\"center\" bgcolor=\"#1a1a1a\" style=\"border-radius:4px\"><a href=\""
            + url
            + "\" style=\"display:inline-block;padding:12px 24px;font-family:Helvetica,Arial,sans-serif;"
            + "font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:4px\">"
            + label + "</a></td></tr></table>";
    return new Snippet(html, button.label() + ": " + button.url() + "\n");
  }
}
