package dev.tidings.bench;

import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.mail.Address;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import java.util.Map;
import java.util.Optional;

/**
 * A composer that needs no campaign or subscriber data: the shape of a real campaign email (a greeting,
 * six product slots with links and images, an open pixel, a text part, about 10 KB of HTML, the
 * List-Unsubscribe headers) written from the message id alone, so that the send pipeline can be
 * measured and crash-tested before, and apart from, the campaign capability. Not for real mail.
 */
public final class SyntheticComposer implements Composer {
  private static final int SLOTS = 6;
  private static final String BASE = "https://shop.example.test";
  private static final Address FROM = Address.of("news@shop.example.test", "Example Shop");
  /** Stands in for the layout every campaign email carries around its slots. */
  private static final String LAYOUT = "<tr><td style=\"padding:12px;font-family:Arial,sans-serif;"
      + "font-size:14px;line-height:20px;color:#333333\">This week's picks, chosen for you from"
      + " what you browsed and what is new in the shop.</td></tr>\n";

  public SyntheticComposer() {}

  @Override
  public Composed compose(SendJob job, MessageId message) {
    String token = message.text();
    String subscriber = message.subscriberId();
    var html = new StringBuilder(11_000);
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Your picks</title>"
        + "</head><body><table width=\"600\" cellpadding=\"0\" cellspacing=\"0\">\n");
    html.append("<tr><td><h1>Hello ").append(subscriber).append(",</h1></td></tr>\n");
    for (int i = 0; i < 36; i++) html.append(LAYOUT);
    var text = new StringBuilder(1_000);
    text.append("Hello ").append(subscriber).append(",\n\nThis week's picks:\n");
    for (int slot = 0; slot < SLOTS; slot++) {
      html.append("<tr><td><a href=\"")
          .append(BASE)
          .append("/c/")
          .append(token)
          .append('/')
          .append(slot)
          .append("\"><img src=\"")
          .append(BASE)
          .append("/o/")
          .append(token)
          .append('/')
          .append(slot)
          .append("\" width=\"280\" height=\"340\" alt=\"Pick ")
          .append(slot + 1)
          .append("\"></a></td></tr>\n");
      html.append(LAYOUT);
      text.append("- ")
          .append(BASE)
          .append("/c/")
          .append(token)
          .append('/')
          .append(slot)
          .append('\n');
    }
    html.append("<tr><td><a href=\"")
        .append(BASE)
        .append("/u/")
        .append(token)
        .append("\">Unsubscribe</a><img src=\"")
        .append(BASE)
        .append("/p/")
        .append(token)
        .append("\" width=\"1\" height=\"1\" alt=\"\"></td></tr></table></body></html>\n");
    text.append("\nUnsubscribe: ").append(BASE).append("/u/").append(token).append('\n');
    var email = new OutgoingEmail(
        token,
        FROM,
        Address.of(subscriber + "@subscribers.example.test"),
        "Your picks of the week, " + subscriber,
        text.toString(),
        Optional.of(html.toString()),
        Map.of(
            "List-Unsubscribe",
            "<" + BASE + "/u/" + token + ">, <mailto:unsubscribe@shop.example.test?subject=" + token
                + ">",
            "List-Unsubscribe-Post",
            "List-Unsubscribe=One-Click"));
    return new Composed.Email(email);
  }
}
