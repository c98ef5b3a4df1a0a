package dev.tidings.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.audience.Consent;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.catalog.Money;
import dev.tidings.catalog.Price;
import dev.tidings.config.Secret;
import dev.tidings.mail.Address;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import jakarta.mail.internet.MimeMultipart;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CampaignRendererTest {
  private static final Instant NOW = Instant.parse("2026-11-23T10:15:30Z");
  private static final TokenCodec TOKENS =
      TokenCodec.of(new Secret("renderer-test-secret-0123456789"));
  private static final CampaignRenderer RENDERER = new CampaignRenderer(
      URI.create("https://mail.shop.example/"), TOKENS, InstantSource.fixed(NOW));
  private static final Pattern TOKEN_URL =
      Pattern.compile("https://mail\\.shop\\.example/([ocpu])/([A-Za-z0-9_-]+)(?:/(\\d+))?");

  private static OutgoingEmail written(CampaignDefinition definition, Subscriber subscriber) {
    var result = RENDERER.render(
        42,
        definition,
        CampaignTemplates.compile(definition),
        subscriber,
        new MessageId(42, 7, subscriber.id()));
    assertThat(result).isInstanceOf(CampaignRenderer.Result.Written.class);
    return ((CampaignRenderer.Result.Written) result).email();
  }

  @Test
  void an_email_has_the_headers_parts_and_k_distinct_slot_urls_whose_tokens_verify()
      throws Exception {
    var subscriber = Fixtures.subscriber("1001", "ada@example.com", "Ada Lovelace", "Wien");
    OutgoingEmail email = written(Fixtures.definition(), subscriber);
    var message = new MessageId(42, 7, "1001");

    assertThat(email.messageId()).isEqualTo(message.text());
    assertThat(email.subject()).isEqualTo("Ada, six picks for you");
    assertThat(email.to().email()).isEqualTo("ada@example.com");
    assertThat(email.to().name()).contains("Ada Lovelace");
    assertThat(email.headers().get("List-Unsubscribe-Post"))
        .isEqualTo("List-Unsubscribe=One-Click");
    assertThat(email.replyTo()).contains(Address.of("care@shop.example"));
    assertThat(email.headers()).doesNotContainKey("Reply-To");
    String listUnsubscribe = email.headers().get("List-Unsubscribe");
    assertThat(listUnsubscribe)
        .matches("<https://mail\\.shop\\.example/u/[A-Za-z0-9_-]+>, <mailto:care@shop\\.example"
            + "\\?subject=unsubscribe%20" + Pattern.quote(message.text()) + ">");

    String html = unescape(email.html().orElseThrow());
    List<String> clicks = new ArrayList<>();
    List<String> images = new ArrayList<>();
    var urls = TOKEN_URL.matcher(html);
    while (urls.find()) {
      var verdict = TOKENS.decode(urls.group(2));
      assertThat(verdict)
          .as("the token carries the subscriber's locale, so a slot card is priced without a read")
          .isEqualTo(new TokenCodec.Verdict.Valid(
              new MessageToken(message, NOW, 6, 0, Optional.of(subscriber.locale()))));
      if (urls.group(1).equals("c")) clicks.add(urls.group(3));
      if (urls.group(1).equals("o")) images.add(urls.group(3));
    }
    assertThat(clicks).containsExactly("0", "1", "2", "3", "4", "5");
    assertThat(images).containsExactly("0", "1", "2", "3", "4", "5");
    assertThat(html).contains("<h1>Hello Ada</h1>").contains("News for Wien");
    assertThat(html)
        .containsPattern("<img src=\"https://mail\\.shop\\.example/p/[A-Za-z0-9_-]+\""
            + " width=\"1\" height=\"1\"");
    assertThat(html.indexOf("/p/")).isLessThan(html.indexOf("</body>"));
    // the text part did not place an unsubscribe link: one is added
    assertThat(email.text())
        .contains("Hello Ada Lovelace")
        .contains("Unsubscribe: https://mail.shop.example/u/");

    var mime = MimeEmails.toMime(email, MimeEmails.offlineSession(), NOW);
    assertThat(mime.getHeader("Message-ID")[0]).isEqualTo("<" + message.text() + "@shop.example>");
    assertThat(mime.getHeader(OutgoingEmail.TIDINGS_MESSAGE_ID)[0]).isEqualTo(message.text());
    assertThat(mime.getHeader("List-Unsubscribe")[0]).isEqualTo(listUnsubscribe);
    assertThat(mime.getContentType()).startsWith("multipart/alternative");
    var parts = (MimeMultipart) mime.getContent();
    assertThat(parts.getCount()).isEqualTo(2);
    assertThat(parts.getBodyPart(0).getContentType()).startsWith("text/plain");
    assertThat(parts.getBodyPart(1).getContentType()).startsWith("text/html");
  }

  @Test
  void html_and_script_in_subscriber_data_are_escaped() {
    var subscriber = Fixtures.subscriber(
        "1002",
        "eve@example.com",
        "<script>alert(1)</script> \"Eve\"",
        "<img src=x onerror=alert(1)>");
    OutgoingEmail email = written(Fixtures.definition(), subscriber);
    String html = email.html().orElseThrow();
    assertThat(html).doesNotContain("<script>").doesNotContain("<img src=x");
    assertThat(html).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    assertThat(html).contains("&lt;img src&#61;x onerror&#61;alert(1)&gt;");
    // the subject and the text part are plain text: shown as written, never as markup
    assertThat(email.subject()).isEqualTo("<script>alert(1)</script>, six picks for you");
  }

  @Test
  void a_line_break_in_data_that_reaches_a_header_is_refused_not_passed_on() {
    ObjectNode json = Fixtures.json();
    json.put("subject", "News for {{subscriber.city}}");
    var definition = CampaignJson.fromJson(json);
    var subscriber = new Subscriber(
        "1003",
        "mallory@example.com",
        Optional.of("Mallory"),
        Locale.ENGLISH,
        ZoneId.of("UTC"),
        Optional.of(new Location(
            Optional.empty(), Optional.of("Wien\r\nBcc: victim@example.com"), Optional.empty())),
        Consent.SUBSCRIBED);
    var result = RENDERER.render(
        42,
        definition,
        CampaignTemplates.compile(definition),
        subscriber,
        new MessageId(42, 7, "1003"));
    assertThat(result)
        .isEqualTo(new CampaignRenderer.Result.Refused(
            "the subject would contain a line break from subscriber data"));
  }

  @Test
  void a_template_that_does_not_place_the_slots_gets_the_default_grid() {
    ObjectNode json = Fixtures.json();
    json.put("html", "<html><body><p>Hi {{subscriber.firstName}}</p></body></html>");
    json.put("text", "Hi {{subscriber.firstName}}");
    json.put("slots", 4);
    OutgoingEmail email = written(
        CampaignJson.fromJson(json), Fixtures.subscriber("1004", "bo@example.com", "Bo", "Graz"));
    String html = email.html().orElseThrow();
    for (int slot = 0; slot < 4; slot++) {
      assertThat(html)
          .containsPattern("<a href=\"https://mail\\.shop\\.example/c/[A-Za-z0-9_-]+/" + slot
              + "\"><img src=\"https://mail\\.shop\\.example/o/[A-Za-z0-9_-]+/" + slot + "\"");
    }
    assertThat(html).doesNotContainPattern("/[oc]/[A-Za-z0-9_-]+/4\"");
    assertThat(html).contains(">Unsubscribe</a>");
    assertThat(email.text()).contains("Pick 4: https://mail.shop.example/c/");
  }

  private static final List<DigestSource.Notice> NOTICES = List.of(
      new DigestSource.Notice(
          "boots",
          "product",
          "followed",
          "Boots <&> \"laces\"",
          Optional.of("https://shop.example/boots?a=1&b=2"),
          Optional.of("https://img.example/boots.jpg"),
          LocalDate.of(2026, 11, 22)),
      new DigestSource.Notice(
          "opening",
          "show",
          "nearby",
          "Opening night",
          Optional.empty(),
          Optional.empty(),
          LocalDate.of(2026, 11, 23)));

  private static OutgoingEmail digest(CampaignDefinition definition) {
    var subscriber = Fixtures.subscriber("1001", "ada@example.com", "Ada Lovelace", "Wien");
    var result = RENDERER.render(
        42,
        definition,
        CampaignTemplates.compile(definition),
        subscriber,
        new MessageId(42, 7, "1001"),
        NOTICES,
        0);
    return ((CampaignRenderer.Result.Written) result).email();
  }

  @Test
  void a_digest_template_shows_a_products_sale_price_beside_its_regular_price() {
    ObjectNode json = Fixtures.json();
    json.put(
        "html",
        "<p>{{#notifications}}{{title}}: {{#onSale}}<s>{{wasPrice}}</s> {{salePrice}}{{/onSale}}"
            + "{{^onSale}}{{price}}{{/onSale}} ({{currency}});{{/notifications}}</p>");
    var definition = CampaignJson.fromJson(json);
    var onSale = new DigestSource.Notice(
        "boots",
        "product",
        "followed",
        "Boots",
        Optional.empty(),
        Optional.empty(),
        LocalDate.of(2026, 11, 22),
        Optional.of(new Price(money("89.00", "EUR"), Optional.of(money("69.00", "EUR")))));
    var regular = new DigestSource.Notice(
        "socks",
        "product",
        "followed",
        "Socks",
        Optional.empty(),
        Optional.empty(),
        LocalDate.of(2026, 11, 22),
        Optional.of(new Price(money("9.5", "EUR"), Optional.empty())));
    var subscriber = Fixtures.subscriber("1001", "ada@example.com", "Ada Lovelace", "Wien");

    var result = RENDERER.render(
        42,
        definition,
        CampaignTemplates.compile(definition),
        subscriber,
        new MessageId(42, 7, "1001"),
        List.of(onSale, regular),
        0);

    String html = ((CampaignRenderer.Result.Written) result).email().html().orElseThrow();
    String was = money("89.00", "EUR").format(subscriber.locale());
    String sale = money("69.00", "EUR").format(subscriber.locale());
    String socks = money("9.50", "EUR").format(subscriber.locale());
    assertThat(was).contains("89").isNotEqualTo(sale);
    assertThat(html)
        .contains("Boots: <s>" + was + "</s> " + sale + " (EUR);")
        .contains("Socks: " + socks + " (EUR);");
  }

  @Test
  void a_digest_notice_without_a_price_shows_none_where_the_template_guards_it() {
    ObjectNode json = Fixtures.json();
    json.put(
        "html",
        "<p>{{#notifications}}{{title}}{{#price}}: {{#onSale}}<s>{{wasPrice}}</s> {{salePrice}}"
            + "{{/onSale}}{{^onSale}}{{price}}{{/onSale}}{{/price}};{{/notifications}}</p>");
    var definition = CampaignJson.fromJson(json);
    var priced = new DigestSource.Notice(
        "socks",
        "product",
        "followed",
        "Socks",
        Optional.empty(),
        Optional.empty(),
        LocalDate.of(2026, 11, 22),
        Optional.of(new Price(money("9.50", "GBP"), Optional.empty())));
    // a product the subscriber's market does not sell is told without a price
    var unpriced = new DigestSource.Notice(
        "boots",
        "product",
        "followed",
        "Boots",
        Optional.empty(),
        Optional.empty(),
        LocalDate.of(2026, 11, 22),
        Optional.empty());
    var subscriber = Fixtures.subscriber("1001", "ada@example.com", "Ada Lovelace", "Wien");

    var result = RENDERER.render(
        42,
        definition,
        CampaignTemplates.compile(definition),
        subscriber,
        new MessageId(42, 7, "1001"),
        List.of(priced, unpriced),
        0);

    String html = ((CampaignRenderer.Result.Written) result).email().html().orElseThrow();
    String socks = money("9.50", "GBP").format(subscriber.locale());
    assertThat(html).contains("Socks: " + socks + ";").contains("Boots;");
  }

  @Test
  void a_digest_places_its_notices_escaped_before_the_slots_when_the_template_does_not() {
    ObjectNode json = Fixtures.json();
    json.put("subject", "{{notificationCount}} new for you");
    OutgoingEmail email = digest(CampaignJson.fromJson(json));

    assertThat(email.subject()).isEqualTo("2 new for you");
    String html = email.html().orElseThrow();
    assertThat(html)
        .contains("<a href=\"https://shop.example/boots?a=1&amp;b=2\"")
        .contains("<img src=\"https://img.example/boots.jpg\"")
        .contains("Boots &lt;&amp;&gt; &quot;laces&quot;")
        .contains("Opening night</div>", "Show near you", "New product")
        .doesNotContain("<&>");
    assertThat(html.indexOf("Opening night")).isLessThan(html.lastIndexOf("</body>"));
    assertThat(email.text())
        .contains("1. Boots <&> \"laces\"\n   https://shop.example/boots?a=1&b=2\n")
        .contains("2. Opening night\n");
  }

  @Test
  void a_template_that_places_the_notices_itself_gets_no_second_list() {
    ObjectNode json = Fixtures.json();
    json.put(
        "html",
        "<html><body>{{#notifications}}<p><a href=\"{{url}}\">{{title}}</a> {{day}}</p>"
            + "{{/notifications}}{{^notifications}}nothing{{/notifications}}</body></html>");
    json.put("text", "{{#notifications}}* {{title}}\n{{/notifications}}");
    OutgoingEmail email = digest(CampaignJson.fromJson(json));

    String html = unescape(email.html().orElseThrow());
    assertThat(html).contains("<p><a href=\"https://shop.example/boots?a=1&b=2\">");
    assertThat(html).contains("2026-11-23").doesNotContain("New product", "nothing");
    assertThat(email.text()).startsWith("* Boots <&> \"laces\"\n* Opening night\n");
    assertThat(email.text()).doesNotContain("1. Boots");
  }

  private static String unescape(String html) {
    return html.replace("&#61;", "=").replace("&#x2F;", "/").replace("&amp;", "&");
  }

  private static Money money(String amount, String currency) {
    return new Money(new BigDecimal(amount), Currency.getInstance(currency));
  }
}
