package dev.tidings.journeys;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The ready-made journeys a shop starts from: welcome series, abandoned cart, browse abandonment, back
 * in stock, price drop, post-purchase cross-sell and win-back. Making one makes its emails as draft
 * campaigns and the journey as a draft that sends them, for the shop to edit and activate.
 */
public final class JourneyTemplates {
  /** One email of a template: the step that sends it and its starting content. */
  public record Email(
      String step, String name, String subject, String html, String text, int slots) {}

  /**
   * A ready-made journey: {@code journey} builds it from its emails' campaign ids, in the order of
   * {@code emails}.
   */
  public record Template(
      String key,
      String name,
      String description,
      List<Email> emails,
      Function<List<Long>, Journey> journey) {}

  private static final double HOLD_OUT = 0.1;
  private static final String GOAL = "purchase";

  private static final List<Template> ALL = List.of(
      new Template(
          "welcome",
          "Welcome series",
          "A welcome when someone signs up, then picks for them at their own best hour two days later.",
          List.of(
              email(
                  "welcome",
                  "Welcome",
                  "Welcome, {{subscriber.firstName}}",
                  "Thank you for"
                      + " signing up. We will write when we have something worth your time.",
                  0),
              email(
                  "picks",
                  "Welcome picks",
                  "{{subscriber.firstName}}, a few picks for you",
                  "We chose these for you the moment you open this email.",
                  3)),
          ids -> new Journey(
              "Welcome series",
              new Trigger.SignedUp(),
              EntryRules.ANYONE,
              List.of(
                  new Step.Send("welcome", ids.get(0), "two-days"),
                  new Step.Wait("two-days", new Step.Until.For(Duration.ofDays(2)), "best-hour"),
                  new Step.Wait("best-hour", new Step.Until.BestHour(), "picks"),
                  new Step.Send("picks", ids.get(1), null)),
              GOAL,
              HOLD_OUT)),
      new Template(
          "abandoned_cart",
          "Abandoned cart",
          "A reminder an hour after a cart is left, a last call a day later; a purchase ends it.",
          List.of(
              email(
                  "reminder",
                  "Cart reminder",
                  "You left something in your cart",
                  "Your cart is waiting for you.",
                  0),
              email(
                  "last-call",
                  "Cart last call",
                  "Last call for your cart",
                  "Your cart is still here, for now.",
                  0)),
          ids -> new Journey(
              "Abandoned cart",
              new Trigger.Did("add_to_cart", 1, Duration.ofHours(1)),
              new EntryRules(Duration.ofDays(7), null),
              List.of(
                  new Step.Wait("hour", new Step.Until.For(Duration.ofHours(1)), "reminder"),
                  new Step.Send("reminder", ids.get(0), "day"),
                  new Step.Wait("day", new Step.Until.For(Duration.ofHours(24)), "last-call"),
                  new Step.Send("last-call", ids.get(1), null)),
              GOAL,
              HOLD_OUT)),
      new Template(
          "browse_abandonment",
          "Browse abandonment",
          "A note to someone who looked at the same product three times in a day and did not cart"
              + " it.",
          List.of(email(
              "nudge",
              "Still thinking about it?",
              "Still thinking about it?",
              "You came back to this a few times. Here it is again.",
              0)),
          ids -> new Journey(
              "Browse abandonment",
              new Trigger.Did("view", 3, Duration.ofDays(1)),
              new EntryRules(Duration.ofDays(7), null),
              List.of(
                  new Step.Wait("two-hours", new Step.Until.For(Duration.ofHours(2)), "carted"),
                  new Step.Branch("carted", new Step.Condition.Did("add_to_cart"), null, "nudge"),
                  new Step.Send("nudge", ids.get(0), null)),
              GOAL,
              HOLD_OUT)),
      new Template(
          "back_in_stock",
          "Back in stock",
          "Tells someone who looked at a product in the last 30 days that it is back.",
          List.of(email(
              "back",
              "Back in stock",
              "It is back in stock",
              "Something you looked at is available again.",
              0)),
          ids -> new Journey(
              "Back in stock",
              new Trigger.ProductNews(
                  Trigger.News.BACK_IN_STOCK, Trigger.Interest.VIEWED, Duration.ofDays(30)),
              new EntryRules(Duration.ofDays(1), null),
              List.of(new Step.Send("back", ids.get(0), null)),
              GOAL,
              HOLD_OUT)),
      new Template(
          "price_drop",
          "Price drop",
          "Tells someone who carted a product in the last 30 days that it costs less now.",
          List.of(email(
              "cheaper",
              "Price drop",
              "Now for less",
              "Something you had in your cart costs less now.",
              0)),
          ids -> new Journey(
              "Price drop",
              new Trigger.ProductNews(
                  Trigger.News.PRICE_DROPPED, Trigger.Interest.CARTED, Duration.ofDays(30)),
              new EntryRules(Duration.ofDays(1), null),
              List.of(new Step.Send("cheaper", ids.get(0), null)),
              GOAL,
              HOLD_OUT)),
      new Template(
          "post_purchase",
          "Post-purchase cross-sell",
          "Three days after a purchase, picks that go with it, chosen when the email is opened.",
          List.of(email(
              "goes-with",
              "Goes with your purchase",
              "Goes well with what you bought",
              "Thank you for your order. These go well with it.",
              3)),
          ids -> new Journey(
              "Post-purchase cross-sell",
              new Trigger.Did(GOAL, 1, Duration.ofHours(1)),
              new EntryRules(Duration.ofDays(14), null),
              List.of(
                  new Step.Wait("three-days", new Step.Until.For(Duration.ofDays(3)), "goes-with"),
                  new Step.Send("goes-with", ids.get(0), null)),
              GOAL,
              HOLD_OUT)),
      new Template(
          "win_back",
          "Win-back",
          "Ninety days after the last purchase, a hello with picks; a second one a week later to"
              + " those who did not open the first.",
          List.of(
              email(
                  "miss-you",
                  "We miss you",
                  "{{subscriber.firstName}}, it has been a while",
                  "Here is what is new since you last came by.",
                  3),
              email(
                  "last-hello",
                  "A last hello",
                  "One more look before we stop asking",
                  "We will not write about this again.",
                  3)),
          ids -> new Journey(
              "Win-back",
              new Trigger.Lapsed(Duration.ofDays(90)),
              new EntryRules(Duration.ofDays(90), null),
              List.of(
                  new Step.Send("miss-you", ids.get(0), "week"),
                  new Step.Wait("week", new Step.Until.For(Duration.ofDays(7)), "opened"),
                  new Step.Branch("opened", new Step.Condition.Opened(), null, "last-hello"),
                  new Step.Send("last-hello", ids.get(1), null)),
              GOAL,
              HOLD_OUT)));

  private JourneyTemplates() {}

  public static List<Template> all() {
    return ALL;
  }

  public static Optional<Template> get(String key) {
    return ALL.stream().filter(template -> template.key().equals(key)).findFirst();
  }

  /** The template's journey, its emails made as drafts, saved as a draft journey. */
  public static JourneyStore.Saved make(
      Template template,
      CampaignDrafts drafts,
      JourneyStore store,
      String fromEmail,
      String fromName) {
    List<Long> ids = template.emails().stream()
        .map(email -> drafts.draft(email, fromEmail, fromName))
        .toList();
    return store.create(template.journey().apply(ids));
  }

  private static Email email(String step, String name, String subject, String body, int slots) {
    String html = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"></head>"
        + "<body style=\"margin:0;padding:24px;background:#f2f2f0;font-family:Helvetica,Arial,"
        + "sans-serif;color:#1a1a1a\"><div style=\"max-width:600px;margin:0 auto;background:#fff;"
        + "padding:24px 32px;border-radius:6px\"><h1 style=\"font-size:24px\">Hello"
        + " {{subscriber.firstName}},</h1><p style=\"font-size:16px;line-height:24px\">" + body
        + "</p>"
        // the entry's products (the cart left behind, the product back in stock) as cards
        + "{{#notifications}}<table role=\"presentation\" width=\"100%\" style=\"border-top:1px"
        + " solid #e5e5e5\"><tr><td width=\"96\" style=\"padding:12px 12px 12px 0\">"
        + "{{#imageUrl}}<a href=\"{{url}}\"><img src=\"{{imageUrl}}\" width=\"96\" alt=\"\""
        + " style=\"display:block;border:0\"></a>{{/imageUrl}}</td><td style=\"padding:12px 0;"
        + "font-size:15px\"><a href=\"{{url}}\" style=\"color:#1a1a1a;font-weight:bold;"
        + "text-decoration:none\">{{title}}</a><div style=\"color:#8a8a85;font-size:13px\">"
        + "{{#wasPrice}}<s>{{wasPrice}}</s> {{/wasPrice}}{{price}}</div></td></tr></table>"
        + "{{/notifications}}"
        + (slots > 0
            ? "<table role=\"presentation\" width=\"100%\"><tr>{{#slots}}<td align=\"center\""
                + " style=\"padding:6px\"><a href=\"{{clickUrl}}\"><img src=\"{{imageUrl}}\""
                + " width=\"170\" alt=\"Pick {{number}}\" style=\"display:block;width:100%;"
                + "max-width:170px;border:0\"></a></td>{{/slots}}</tr></table>"
            : "")
        + "<p style=\"font-size:12px;color:#8a8a85\"><a href=\"{{unsubscribeUrl}}\">Unsubscribe"
        + "</a></p></div></body></html>";
    String text = "Hello {{subscriber.firstName}},\n\n" + body + "\n\n"
        + "{{#notifications}}- {{title}} {{price}}\n  {{url}}\n{{/notifications}}"
        + "\nUnsubscribe: {{unsubscribeUrl}}\n";
    return new Email(step, name, subject, html, text, slots);
  }
}
