package dev.tidings.opentime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.WebUrl;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.TemplateLinks;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.SubscriberMarkets;
import dev.tidings.catalog.SubscriberMarkets.Placement;
import dev.tidings.coordination.inprocess.InProcessCoordination;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.opentime.card.ProductCards;
import dev.tidings.recommend.Recommendations;
import dev.tidings.recommend.Recommendations.Recommended;
import dev.tidings.recommend.Recommender;
import dev.tidings.storage.Database;
import dev.tidings.testing.StartsServers;
import dev.tidings.testing.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Currency;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An email's slots against what the email shows already and the subscriber's market, on the embedded
 * PostgreSQL with a real catalogue; the recommender answers the catalogue in id order, as a popularity
 * list would, so that without the rules the slots would begin with the digest's and template's products.
 */
@StartsServers
class MarketSlotRulesTest {
  private static final List<String> IDS =
      IntStream.range(0, 40).mapToObj(i -> String.format("p%02d", i)).toList();

  private final InstantSource clock = InstantSource.system();
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final Map<MessageId, List<String>> digests = new HashMap<>();
  private final Map<Long, String> templates = new HashMap<>();
  private final Map<String, Placement> placements = new HashMap<>();
  private Database database;
  private CatalogService catalog;
  private Markets markets;
  private SlotChooser chooser;
  private MarketSlotRules rules;
  private final AtomicInteger placementReads = new AtomicInteger();

  /** The catalogue in id order, leaving out what the request excludes, as many as asked. */
  private final Recommender inIdOrder = request -> new Recommendations(IDS.stream()
      .filter(id -> !request.exclude().contains(id))
      .limit(request.k())
      .map(id -> new Recommended(id, "test", 1.0))
      .toList());

  @BeforeEach
  void open() {
    database = TestDatabases.embedded();
    catalog = new CatalogService(database.jdbi(), clock);
    markets = new Markets(database.jdbi(), clock);
    // the first half priced in pounds, the second in euros
    for (int i = 0; i < IDS.size(); i++) catalog.put(product(IDS.get(i), i < 20 ? "GBP" : "EUR"));
    rules = new MarketSlotRules(
        message -> digests.getOrDefault(message, List.of()),
        campaign -> catalog.namedBy(TemplateLinks.inHtml(templates.getOrDefault(campaign, ""))),
        catalog::getAll,
        markets,
        new SubscriberMarkets(
            markets::list,
            ids -> {
              placementReads.incrementAndGet();
              return placements;
            },
            metrics),
        metrics);
    chooser = new SlotChooser(
        InProcessCoordination.computeOnce(clock),
        inIdOrder,
        rules,
        database.jdbi(),
        clock,
        metrics,
        SlotChooser.Options.defaults());
  }

  @AfterEach
  void close() {
    chooser.close();
    database.close();
  }

  private static Product product(String id, String currency) {
    return new Product(
        id,
        "Product " + id,
        Optional.of("Acme"),
        Optional.empty(),
        new BigDecimal("10.00"),
        Currency.getInstance(currency),
        WebUrl.of("https://img.shop.example/" + id + ".jpg"),
        WebUrl.of("https://shop.example/p/" + id),
        true,
        Map.of());
  }

  private static MessageToken email(long campaign, String subscriber, int slots) {
    return new MessageToken(
        new MessageId(campaign, 1, subscriber), Instant.parse("2026-11-23T10:00:00Z"), slots);
  }

  @Test
  void a_digest_emails_slots_never_show_its_digest_products_and_still_fill() {
    MessageToken token = email(1, "ada", 3);
    digests.put(token.message(), List.of("p00", "p01"));

    List<String> slots = chooser.choose(token).productIds();

    assertThat(slots).containsExactly("p02", "p03", "p04");
  }

  @Test
  void a_product_the_template_names_by_its_landing_url_or_image_never_fills_a_slot() {
    templates.put(
        2L,
        "<p><a href=\"https://shop.example/p/p00\">Our pick</a>"
            + "<img src='https://img.shop.example/p02.jpg'></p>"
            + "<a href=\"https://shop.example/p/{{subscriber.id}}\">yours</a>");
    MessageToken token = email(2, "bo", 4);

    List<String> slots = chooser.choose(token).productIds();

    assertThat(slots).containsExactly("p01", "p03", "p04", "p05");
  }

  @Test
  void variants_of_one_item_group_are_one_product_against_the_digest_and_each_other() {
    // p00..p02 are sizes of one shoe, p03 and p04 colours of one shirt
    for (int i = 0; i < 5; i++) {
      Product plain = product(IDS.get(i), "GBP");
      catalog.put(new Product(
          plain.id(),
          plain.title(),
          plain.brand(),
          plain.category(),
          plain.price(),
          plain.currency(),
          plain.imageUrl(),
          plain.landingUrl(),
          true,
          Map.of(),
          Optional.empty(),
          Optional.of(i < 3 ? "shoe" : "shirt")));
    }
    MessageToken token = email(4, "cy", 3);
    digests.put(token.message(), List.of("p01"));

    List<String> slots = chooser.choose(token).productIds();

    assertThat(slots)
        .as("one shirt, then products of no group")
        .containsExactly("p03", "p05", "p06");
    assertThat(metrics
            .get(MarketSlotRules.DROPPED)
            .tag("reason", "same_product")
            .counter()
            .count())
        .isPositive();
  }

  @Test
  void a_subscriber_sees_only_what_their_market_sells_priced_in_its_currency() {
    markets.put(new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB"), true));
    markets.put(
        new Market("DE", Currency.getInstance("EUR"), Locale.GERMANY, List.of("DE", "AT"), false));
    // a pound product sold in Germany at a price of its own
    markets.putPrices("p03", Map.of("DE", new BigDecimal("11.90")));
    placements.put("hans", new Placement(Optional.empty(), Optional.of("AT")));
    placements.put("ann", new Placement(Optional.empty(), Optional.of("US")));

    List<String> austrian = chooser.choose(email(3, "hans", 4)).productIds();
    List<String> nowhere = chooser.choose(email(3, "ann", 4)).productIds();

    assertThat(austrian).containsExactly("p03", "p20", "p21", "p22");
    assertThat(nowhere).as("the default market's").containsExactly("p00", "p01", "p02", "p03");
    assertThat(markets.pricesIn(markets.get("DE").orElseThrow(), austrian))
        .containsEntry("p03", new BigDecimal("11.90"))
        .containsEntry("p20", new BigDecimal("10.00"))
        .hasSize(4);
    assertThat(metrics
            .get(MarketSlotRules.DROPPED)
            .tag("reason", "not_in_market")
            .counter()
            .count())
        .isPositive();
  }

  @Test
  void a_candidate_whose_stored_landing_url_today_refuses_still_fills_a_slot_of_a_first_open()
      throws IOException {
    // as an earlier version stored it: straight into the table, past today's rules
    database
        .jdbi()
        .useHandle(handle -> handle.execute(
            "UPDATE products SET landing_url = 'http://[1.2.3]/x' WHERE id = 'p01'"));
    var images = new SlotImages(
        chooser,
        new ProductCards(
            Files.createTempDirectory("tidings-cards-test"),
            ProductCards.Options.defaults(),
            FetchAllowance.none(),
            metrics),
        catalog,
        new SubscriberService(database.jdbi(), clock));
    MessageToken token = email(4, "cy", 3);

    ChosenSlots chosen = chooser.choose(token);

    assertThat(chosen.productIds()).containsExactly("p00", "p01", "p02");
    assertThat(chosen.how()).isEqualTo(ChosenSlots.How.COMPUTED);
    for (int slot = 0; slot < 3; slot++) {
      assertThat(images.slot(token, slot).productId())
          .as("slot %d shows its product, not the neutral card", slot)
          .contains(chosen.productIds().get(slot));
    }
    assertThat(images.product(token, 1).orElseThrow().landingUrl()).isEmpty();
  }

  @Test
  void a_candidate_the_catalogue_cannot_read_gives_its_slot_to_the_next_one() {
    // a title today's rules refuse: the row is left out of every read
    database
        .jdbi()
        .useHandle(handle -> handle.execute("UPDATE products SET title = '' WHERE id = 'p01'"));
    MessageToken token = email(5, "dee", 3);

    List<String> slots = chooser.choose(token).productIds();

    assertThat(slots).containsExactly("p00", "p02", "p03");
    assertThat(metrics
            .get(MarketSlotRules.DROPPED)
            .tag("reason", "not_in_catalogue")
            .counter()
            .count())
        .isPositive();
  }

  @Test
  void a_first_open_with_markets_reads_the_subscribers_placement_once_for_the_list_and_every_card()
      throws IOException {
    markets.put(new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB"), true));
    markets.put(
        new Market("DE", Currency.getInstance("EUR"), Locale.GERMANY, List.of("DE", "AT"), false));
    placements.put("hans", new Placement(Optional.empty(), Optional.of("AT")));
    var images = new SlotImages(
        chooser,
        new ProductCards(
            Files.createTempDirectory("tidings-cards-test"),
            ProductCards.Options.defaults(),
            FetchAllowance.none(),
            metrics),
        catalog,
        new SubscriberService(database.jdbi(), clock),
        Optional.of(rules),
        Optional.of(markets));
    MessageToken token = email(6, "hans", 4);

    for (int slot = 0; slot < 4; slot++) {
      var priced = images.priced(token, slot).orElseThrow();
      assertThat(priced.product().currency().getCurrencyCode()).isEqualTo("EUR");
      assertThat(priced.locale()).isEqualTo(Locale.GERMANY);
    }

    assertThat(placementReads)
        .as("one read for the chooser's rules and the four cards")
        .hasValue(1);
  }

  @Test
  void the_products_a_campaigns_emails_told_its_template_names_are_left_out_of_its_slots() {
    var told = new TemplateProductTable(database.jdbi(), clock);
    told.put(9, Set.of("p00", "p02"));
    told.put(9, Set.of("p00", "p01"));
    var telling = new SlotChooser(
        InProcessCoordination.computeOnce(clock),
        inIdOrder,
        new MarketSlotRules(
            message -> List.of(),
            told::of,
            catalog::getAll,
            markets,
            new SubscriberMarkets(markets::list, ids -> placements, metrics),
            metrics),
        database.jdbi(),
        clock,
        metrics,
        SlotChooser.Options.defaults());
    try {
      assertThat(telling.choose(email(9, "eve", 3)).productIds())
          .as("the latest told wins")
          .containsExactly("p02", "p03", "p04");
      assertThat(told.of(10)).as("a campaign told nothing names nothing").isEmpty();
    } finally {
      telling.close();
    }
  }
}
