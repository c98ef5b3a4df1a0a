package dev.tidings.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tidings.app.DeliveryHeadlines;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.SuppressionService;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.CampaignEmails;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.RecordingSends;
import dev.tidings.config.Secret;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.ReceiptStore;
import dev.tidings.message.MessageId;
import dev.tidings.message.TokenCodec;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import dev.tidings.web.campaign.CampaignHeadlines;
import dev.tidings.web.campaign.CampaignRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/campaigns} on real PostgreSQL: each campaign carries the headline of the
 * delivery funnel its receipts built, asked for once per page.
 */
class CampaignHeadlinesIT {
  private static final String KEY = "campaign-headlines-key-0123456789";
  private static final String CAMPAIGN = """
      {"name":"%s","from":{"email":"news@shop.example"},"subject":"Hi","slots":1,
       "html":"<html><body><p>Hello</p></body></html>","text":"Hello"}""";
  private static final Instant T0 = Instant.parse("2026-06-01T08:00:00Z");
  private static final String PERSON = "Mozilla/5.0 (Windows NT 10.0) Thunderbird/128.0";

  private static Database database;
  private static HttpServer server;
  private static ApiClient api;
  private static final List<List<Long>> asked = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    database = TestDatabases.real();
    var jdbi = database.jdbi();
    InstantSource clock = InstantSource.system();
    var campaigns = new CampaignService(
        jdbi,
        new RecordingSends(),
        new AudienceQuery(jdbi, clock),
        clock,
        new SimpleMeterRegistry());
    var emails = new CampaignEmails(
        jdbi,
        new SubscriberService(jdbi, clock),
        new SuppressionService(jdbi, clock),
        new CampaignRenderer(
            URI.create("https://mail.shop.example"),
            TokenCodec.of(new Secret("campaign-headlines-secret-0123456789")),
            clock),
        clock,
        new SimpleMeterRegistry());
    var delivery = new DeliveryHeadlines(new DeliveryStats(jdbi));
    CampaignHeadlines counting = ids -> {
      asked.add(List.copyOf(ids));
      return delivery.of(ids);
    };
    server = HttpServer.start(
        new HttpServer.Options(0, new Secret(KEY), Duration.ofSeconds(1)),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        List.of(),
        List.of(new CampaignRoutes(campaigns, emails, 64 * 1024, counting)));
    api = new ApiClient(server.port(), KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
    database.close();
  }

  private static long create(String name) {
    var created = api.postJson("/api/v1/campaigns", CAMPAIGN.formatted(name));
    assertThat(created.status()).isEqualTo(201);
    return created.json().path("id").asLong();
  }

  private static String message(long campaign, int subscriber) {
    return new MessageId(campaign, 1, "s" + subscriber).text();
  }

  private static Receipt receipt(String message, DeliveryStatus status, int minutes) {
    return Receipt.of(message, status, T0.plusSeconds(60L * minutes), ReceiptSource.API);
  }

  private static Receipt open(String message, String agent) {
    return new Receipt(
        message,
        DeliveryStatus.OPENED,
        T0.plusSeconds(3600),
        ReceiptSource.PIXEL,
        Optional.empty(),
        Optional.of(agent),
        Optional.empty(),
        false,
        Optional.empty(),
        Optional.empty());
  }

  @Test
  void each_listed_campaign_has_its_funnel_headline_read_once_for_the_page() {
    long busy = create("Busy");
    long quiet = create("Quiet");
    var store =
        new ReceiptStore(database.jdbi(), InstantSource.system(), new SimpleMeterRegistry());
    List<Receipt> receipts = new ArrayList<>();
    for (int s = 1; s <= 4; s++)
      receipts.add(Receipt.of(
          message(busy, s), DeliveryStatus.IN_GATEWAY, T0.minusSeconds(1), ReceiptSource.SMTP));
    store.apply(receipts, List.of());
    store.apply(
        List.of(
            receipt(message(busy, 1), DeliveryStatus.SENT, 0),
            receipt(message(busy, 2), DeliveryStatus.SENT, 0),
            receipt(message(busy, 3), DeliveryStatus.SENT, 0),
            receipt(message(busy, 4), DeliveryStatus.BOUNCED, 1),
            receipt(message(busy, 1), DeliveryStatus.DELIVERED, 1),
            receipt(message(busy, 2), DeliveryStatus.DELIVERED, 1),
            // a click implies the open, the delivery and the send; twice counts once
            receipt(message(busy, 3), DeliveryStatus.CLICKED, 90),
            receipt(message(busy, 3), DeliveryStatus.CLICKED, 95),
            open(message(busy, 1), PERSON),
            open(message(busy, 2), "Mozilla/5.0"),
            receipt(message(busy, 2), DeliveryStatus.UNSUBSCRIBED, 120)),
        List.of());

    asked.clear();
    var list = api.get("/api/v1/campaigns?limit=1000");
    assertThat(list.status()).isEqualTo(200);
    assertThat(asked).hasSize(1);
    assertThat(asked.getFirst()).contains(busy, quiet);

    JsonNode headline = item(list.json(), busy).path("headline");
    assertThat(counts(headline))
        .containsEntry("sent", 4L)
        .containsEntry("delivered", 3L)
        .containsEntry("opened", 3L)
        .containsEntry("humanOpened", 1L)
        .containsEntry("clicked", 1L)
        .containsEntry("bounced", 1L)
        .containsEntry("complained", 0L)
        .containsEntry("unsubscribed", 1L);
    JsonNode rates = headline.path("rates");
    assertThat(rates.path("delivery").asDouble()).isCloseTo(0.75, within(1e-9));
    assertThat(rates.path("open").asDouble()).isCloseTo(1.0, within(1e-9));
    assertThat(rates.path("humanOpen").asDouble()).isCloseTo(1.0 / 3, within(1e-9));
    assertThat(rates.path("click").asDouble()).isCloseTo(1.0 / 3, within(1e-9));
    assertThat(rates.has("contact")).isTrue();

    JsonNode none = item(list.json(), quiet).path("headline");
    assertThat(counts(none).values()).isNotEmpty().containsOnly(0L);
    assertThat(none.path("rates").path("delivery").asDouble()).isZero();
  }

  @Test
  void pages_ask_for_their_own_campaigns_only() {
    create("Page one");
    create("Page two");
    asked.clear();
    var first = api.get("/api/v1/campaigns?limit=1");
    assertThat(first.status()).isEqualTo(200);
    long shown = first.json().path("items").get(0).path("id").asLong();
    assertThat(asked).containsExactly(List.of(shown));
    assertThat(first.json().path("items").get(0).path("headline").path("sent").isNumber())
        .isTrue();
  }

  private static JsonNode item(JsonNode page, long id) {
    for (JsonNode item : page.path("items")) if (item.path("id").asLong() == id) return item;
    throw new AssertionError("campaign " + id + " is not listed: " + page);
  }

  private static Map<String, Long> counts(JsonNode headline) {
    var counts = new LinkedHashMap<String, Long>();
    for (var field : headline.properties())
      if (field.getValue().isNumber())
        counts.put(field.getKey(), field.getValue().asLong());
    return counts;
  }
}
