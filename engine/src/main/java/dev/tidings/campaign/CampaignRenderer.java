package dev.tidings.campaign;

import com.github.mustachejava.Mustache;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.mail.Address;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import java.io.Writer;
import java.net.URI;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes one email of a campaign for one subscriber: the templates compiled once, one signed token per
 * email (every URL in it carries the same one), the slot grid and open pixel when the template does not
 * place them, and the RFC 8058 unsubscribe headers. Pure computation, no I/O. Thread-safe.
 *
 * <p>Template variables: {@code subscriber.id}, {@code .email}, {@code .name}, {@code .firstName},
 * {@code .locale}, {@code .language}, {@code .city}, {@code .country}, {@code .timeZone};
 * {@code campaign.id}, {@code campaign.name}; {@code unsubscribeUrl}, {@code pixelUrl}; {@code slots}
 * (a list of {@code index}, {@code number}, {@code imageUrl}, {@code clickUrl}) and {@code slotCount};
 * in a digest, {@code notifications} (see {@link #notifications}) and {@code notificationCount}, placed
 * by {@link DigestBlocks} when the template has no {@code {{#notifications}}} section.
 */
public final class CampaignRenderer {
  public static final String LIST_UNSUBSCRIBE = "List-Unsubscribe";
  public static final String LIST_UNSUBSCRIBE_POST = "List-Unsubscribe-Post";
  public static final String ONE_CLICK = "List-Unsubscribe=One-Click";

  private final String publicBase;
  private final TokenCodec tokens;
  private final InstantSource clock;

  public CampaignRenderer(URI publicUrl, TokenCodec tokens, InstantSource clock) {
    String base = publicUrl.toString();
    this.publicBase = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    this.tokens = tokens;
    this.clock = clock;
  }

  /** What rendering made of one subscriber: an email, or why none can be written from this data. */
  public sealed interface Result {
    record Written(OutgoingEmail email, String token) implements Result {}

    record Refused(String reason) implements Result {}
  }

  public Result render(
      long campaignId,
      CampaignDefinition definition,
      CampaignTemplates.Compiled templates,
      Subscriber subscriber,
      MessageId message) {
    return render(campaignId, definition, templates, subscriber, message, List.of(), 0);
  }

  /**
   * An email that also tells {@code notices} (a digest), its slots in experiment arm {@code arm} (0:
   * none), which its token carries to the slot requests.
   */
  public Result render(
      long campaignId,
      CampaignDefinition definition,
      CampaignTemplates.Compiled templates,
      Subscriber subscriber,
      MessageId message,
      List<DigestSource.Notice> notices,
      int arm) {
    // the locale rides in the token only where slot cards are priced with it
    Optional<Locale> locale =
        definition.slots() > 0 ? Optional.of(subscriber.locale()) : Optional.empty();
    String token =
        tokens.encode(new MessageToken(message, clock.instant(), definition.slots(), arm, locale));
    String unsubscribeUrl = publicBase + "/u/" + token;
    String pixelUrl = publicBase + "/p/" + token;
    List<Map<String, Object>> slots = new ArrayList<>(definition.slots());
    for (int i = 0; i < definition.slots(); i++) {
      Map<String, Object> slot = HashMap.newHashMap(4);
      slot.put("index", i);
      slot.put("number", i + 1);
      slot.put("imageUrl", publicBase + "/o/" + token + "/" + i);
      slot.put("clickUrl", publicBase + "/c/" + token + "/" + i);
      slots.add(slot);
    }
    Map<String, Object> scope = HashMap.newHashMap(8);
    scope.put("subscriber", subscriberScope(subscriber));
    scope.put("campaign", Map.of("id", campaignId, "name", definition.name()));
    scope.put("unsubscribeUrl", unsubscribeUrl);
    scope.put("pixelUrl", pixelUrl);
    scope.put("slots", slots);
    scope.put("slotCount", definition.slots());
    List<Map<String, Object>> notifications = notifications(notices, subscriber.locale());
    scope.put("notifications", notifications);
    scope.put("notificationCount", notices.size());

    String subject = execute(templates.subject(), scope, 128).strip();
    if (hasLineBreak(subject))
      return new Result.Refused("the subject would contain a line break from subscriber data");
    if (subject.isEmpty()) return new Result.Refused("the subject would be empty");

    String htmlBody = execute(templates.html(), scope, definition.html().length() + 2048);
    String textBody = execute(templates.text(), scope, definition.text().length() + 1024);
    if (!notifications.isEmpty()) {
      if (!templates.htmlPlacesNotifications())
        htmlBody = DigestBlocks.insertHtml(htmlBody, notifications);
      if (!templates.textPlacesNotifications())
        textBody = DigestBlocks.appendText(textBody, notifications);
    }
    String html = html(htmlBody, templates, slots, pixelUrl, unsubscribeUrl);
    String text = text(textBody, templates, slots, unsubscribeUrl);

    Address to;
    try {
      to = new Address(subscriber.email(), subscriber.name());
    } catch (IllegalArgumentException e) {
      return new Result.Refused("the subscriber's address cannot be used: " + e.getMessage());
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(LIST_UNSUBSCRIBE, listUnsubscribe(definition, unsubscribeUrl, message));
    headers.put(LIST_UNSUBSCRIBE_POST, ONE_CLICK);
    try {
      return new Result.Written(
          new OutgoingEmail(
              message.text(),
              definition.from(),
              to,
              subject,
              text,
              Optional.of(html),
              headers,
              definition.replyTo()),
          token);
    } catch (IllegalArgumentException e) {
      return new Result.Refused("a header would carry a line break: " + e.getMessage());
    }
  }

  /**
   * Each notice as the template sees it: {@code number}, {@code id}, {@code type}, {@code kind}, {@code
   * nearby}, {@code title}, {@code url}, {@code imageUrl}, {@code day}; a product's also {@code price}
   * (what it costs now, as the subscriber's locale writes it), {@code currency}, {@code onSale}, and on
   * sale {@code salePrice} (the same as {@code price}) and {@code wasPrice} (the regular price, for a
   * template to strike through).
   */
  private static List<Map<String, Object>> notifications(
      List<DigestSource.Notice> notices, Locale locale) {
    List<Map<String, Object>> out = new ArrayList<>(notices.size());
    for (int i = 0; i < notices.size(); i++) {
      var notice = notices.get(i);
      Map<String, Object> item = HashMap.newHashMap(10);
      item.put("number", i + 1);
      item.put("id", notice.id());
      item.put("type", notice.type());
      item.put("kind", notice.kind());
      item.put("nearby", notice.kind().equals("nearby"));
      item.put("title", notice.title());
      notice.url().ifPresent(url -> item.put("url", url));
      notice.imageUrl().ifPresent(url -> item.put("imageUrl", url));
      item.put("day", notice.day().toString());
      notice.price().ifPresent(price -> {
        String now = price.formatNow(locale);
        item.put("price", now);
        item.put("currency", price.now().currency().getCurrencyCode());
        item.put("onSale", price.onSale());
        price.formatWas(locale).ifPresent(was -> {
          item.put("salePrice", now);
          item.put("wasPrice", was);
        });
      });
      out.add(item);
    }
    return out;
  }

  private static Map<String, Object> subscriberScope(Subscriber subscriber) {
    Map<String, Object> out = HashMap.newHashMap(12);
    String name = subscriber.name().orElse("");
    out.put("id", subscriber.id());
    out.put("email", subscriber.email());
    out.put("name", name);
    int space = name.indexOf(' ');
    out.put("firstName", space > 0 ? name.substring(0, space) : name);
    out.put("locale", subscriber.locale().toLanguageTag());
    out.put("language", subscriber.locale().getLanguage());
    out.put("timeZone", subscriber.timeZone().getId());
    subscriber.location().flatMap(Location::city).ifPresent(city -> out.put("city", city));
    subscriber
        .location()
        .flatMap(Location::country)
        .ifPresent(country -> out.put("country", country));
    return out;
  }

  /** The URL, then a mailto to the reply-to (else sender) address when it needs no escaping in a URI. */
  private static String listUnsubscribe(
      CampaignDefinition definition, String unsubscribeUrl, MessageId message) {
    String mailbox = definition.replyTo().orElse(definition.from()).email();
    // An address is ASCII (its domain in punycode);
    // these characters need no escaping in a mailto URI.
    boolean plain = mailbox
        .chars()
        .allMatch(c -> (c >= 'a' && c <= 'z')
            || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9')
            || c == '.'
            || c == '_'
            || c == '+'
            || c == '-'
            || c == '@');
    return plain
        ? "<" + unsubscribeUrl + ">, <mailto:" + mailbox + "?subject=unsubscribe%20"
            + message.text() + ">"
        : "<" + unsubscribeUrl + ">";
  }

  private static String html(
      String body,
      CampaignTemplates.Compiled templates,
      List<Map<String, Object>> slots,
      String pixelUrl,
      String unsubscribeUrl) {
    var tail = new StringBuilder(256 + slots.size() * 200);
    if (!templates.htmlPlacesSlots() && !slots.isEmpty()) {
      tail.append("<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"8\" border=\"0\">");
      for (int i = 0; i < slots.size(); i++) {
        if (i % 3 == 0) tail.append(i == 0 ? "<tr>" : "</tr><tr>");
        var slot = slots.get(i);
        tail.append("<td><a href=\"")
            .append(slot.get("clickUrl"))
            .append("\"><img src=\"")
            .append(slot.get("imageUrl"))
            .append("\" width=\"180\" alt=\"\" style=\"display:block;border:0\"></a></td>");
      }
      tail.append("</tr></table>");
    }
    if (!templates.htmlLinksUnsubscribe())
      tail.append("<p style=\"font-size:12px;color:#666\"><a href=\"")
          .append(unsubscribeUrl)
          .append("\">Unsubscribe</a></p>");
    tail.append("<img src=\"")
        .append(pixelUrl)
        .append("\" width=\"1\" height=\"1\" alt=\"\" style=\"display:block;border:0\">");
    int end = lastIndexOfIgnoreCase(body, "</body>");
    return end < 0 ? body + tail : body.substring(0, end) + tail + body.substring(end);
  }

  private static String text(
      String body,
      CampaignTemplates.Compiled templates,
      List<Map<String, Object>> slots,
      String unsubscribeUrl) {
    var out = new StringBuilder(body.length() + 128 + slots.size() * 100).append(body);
    if (!templates.textPlacesSlots() && !slots.isEmpty()) {
      out.append("\n\n");
      for (var slot : slots)
        out.append("Pick ")
            .append(slot.get("number"))
            .append(": ")
            .append(slot.get("clickUrl"))
            .append('\n');
    }
    if (!templates.textLinksUnsubscribe())
      out.append("\n\nUnsubscribe: ").append(unsubscribeUrl).append('\n');
    return out.toString();
  }

  /** Into a writer sized for the result up front: growing one was a visible share of a render. */
  private static String execute(Mustache template, Map<String, Object> scope, int expected) {
    var out = new TextWriter(expected);
    template.execute(out, scope);
    return out.toString();
  }

  /** A writer over an unsynchronised StringBuilder (one render runs on one thread). */
  private static final class TextWriter extends Writer {
    private final StringBuilder text;

    TextWriter(int capacity) {
      this.text = new StringBuilder(capacity);
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      text.append(chars, offset, length);
    }

    @Override
    public void write(String string, int offset, int length) {
      text.append(string, offset, offset + length);
    }

    @Override
    public void write(String string) {
      text.append(string);
    }

    @Override
    public void write(int c) {
      text.append((char) c);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    @Override
    public String toString() {
      return text.toString();
    }
  }

  private static boolean hasLineBreak(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\r' || c == '\n' || c == '\0') return true;
    }
    return false;
  }

  static int lastIndexOfIgnoreCase(String text, String what) {
    for (int i = text.length() - what.length(); i >= 0; i--)
      if (text.regionMatches(true, i, what, 0, what.length())) return i;
    return -1;
  }
}
