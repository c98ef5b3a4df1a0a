package dev.tidings.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.app.AudienceWiring;
import dev.tidings.app.CampaignWiring;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.Node;
import dev.tidings.app.NodeAdditions;
import dev.tidings.app.NotifyWiring;
import dev.tidings.app.OpenTimeWiring;
import dev.tidings.app.Role;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.config.SettingsLoader;
import dev.tidings.demo.SentEmail;
import dev.tidings.message.MessageToken;
import dev.tidings.message.TokenCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo shop, small, on its own embedded database: its campaign and its digest sent to the outbox,
 * every email's slots opened; then no email shows one product twice across its digest list and its
 * slots, and every email's prices are in one currency, the subscriber's market's: what its slots show
 * is sold there (its card is priced there), and any price its HTML writes is in that currency.
 */
@Timeout(600)
class DemoOutboxMarketsIT {
  /** An amount written with a currency sign or code, as a template or a digest might write a price. */
  private static final Pattern PRICE =
      Pattern.compile("(£|€|\\$|GBP|EUR|USD)\\s?\\d|\\d[\\d.,]*\\s?(£|€|GBP|EUR|USD)");

  @TempDir
  Path dataDir;

  @Test
  void every_email_shows_each_product_once_and_prices_in_its_subscribers_market() throws Exception {
    var settings = SettingsLoader.load(Map.of("TIDINGS_DATA_DIR", dataDir.toString()));
    try (var node = Node.of(settings, NodeAdditions.NONE.withCapability(new SampleShopWiring()))) {
      var shop = new DemoCommand();
      shop.seed = 42;
      shop.products = 80;
      shop.subscribers = 150;
      shop.eventsPerSubscriber = 8;
      shop.loadSampleShop(node, URI.create("http://localhost:8080"));
      node.start(Role.DEMO, 0);
      var campaigns = node.capability(CampaignWiring.class).campaigns();
      long campaign = DemoCampaign.send(node, "demo campaign", "/demo/campaign.json");
      assertThat(DemoCampaign.follow(campaigns, campaign, "demo campaign")).isTrue();
      DemoDigest.publishAndSend(node);

      List<SentEmail> emails = SentEmail.readOutbox(dataDir.resolve("outbox"));
      Map<String, String> bodies = bodies(dataDir.resolve("outbox"));
      TokenCodec tokens = node.capability(OpenTimeWiring.class).tokens();
      var chooser = node.capability(OpenTimeWiring.class).chooser();
      var images = node.capability(OpenTimeWiring.class).images();
      var notifications = node.capability(NotifyWiring.class).notifications();
      Markets markets = node.capability(CatalogWiring.class).markets();
      List<Market> defined = markets.list();
      var subscribers = node.capability(AudienceWiring.class).subscribers();
      assertThat(defined).extracting(Market::code).containsExactly("DE", "GB", "US");

      int digests = 0;
      Set<String> marketsSeen = new HashSet<>();
      for (SentEmail email : emails) {
        MessageToken token = ((TokenCodec.Verdict.Valid) tokens.decode(email.token())).token();
        var message = token.message();
        List<String> slots = chooser.choose(token).productIds();
        List<String> told =
            notifications.toldIn(message.campaignId(), message.runId(), message.subscriberId());
        if (!told.isEmpty()) digests++;
        var placement =
            subscribers.placements(List.of(message.subscriberId())).get(message.subscriberId());
        Market market =
            Markets.of(placement.market(), placement.country(), defined).orElseThrow();
        marketsSeen.add(market.code());

        List<String> shown = new ArrayList<>(told);
        shown.addAll(slots);
        assertThat(shown).as("what %s shows", email.messageId()).doesNotHaveDuplicates();
        assertThat(slots).as("the slots of %s", email.messageId()).hasSize(token.slots());
        assertThat(markets.pricesIn(market, slots))
            .as("the slot products of %s, in market %s", email.messageId(), market.code())
            .containsOnlyKeys(slots);
        for (int slot = 0; slot < token.slots(); slot++) {
          var card = images.priced(token, slot).orElseThrow();
          assertThat(card.product().currency())
              .as("the currency of slot %d of %s", slot, email.messageId())
              .isEqualTo(market.currency());
          assertThat(card.locale()).isEqualTo(market.locale());
          assertThat(card.product().price())
              .isEqualTo(markets
                  .pricesIn(market, List.of(card.product().id()))
                  .get(card.product().id()));
        }
        String body = bodies.getOrDefault(email.messageId(), "");
        Matcher price = PRICE.matcher(body);
        while (price.find())
          assertThat(price.group())
              .as("a price in %s", email.messageId())
              .containsAnyOf(signs(market));
      }
      assertThat(emails).hasSizeGreaterThan(150);
      assertThat(digests).as("digest emails that told something").isPositive();
      assertThat(marketsSeen)
          .as("subscribers in every market")
          .containsExactlyInAnyOrder("DE", "GB", "US");
    }
  }

  private static String[] signs(Market market) {
    return switch (market.currency().getCurrencyCode()) {
      case "GBP" -> new String[] {"£", "GBP"};
      case "EUR" -> new String[] {"€", "EUR"};
      default -> new String[] {"$", "USD"};
    };
  }

  /** Each email's decoded text by its message id. */
  private static Map<String, String> bodies(Path outbox) throws IOException {
    Map<String, String> bodies = new HashMap<>();
    Pattern id = Pattern.compile("^X-Tidings-Message-Id:\\s*(\\S+)", Pattern.MULTILINE);
    try (Stream<Path> files = Files.walk(outbox)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
        String eml = Files.readString(file, StandardCharsets.UTF_8)
            .replace("=\r\n", "")
            .replace("=\n", "")
            .replace("=3D", "=")
            .replace("=C2=A3", "£")
            .replace("=E2=82=AC", "€");
        Matcher found = id.matcher(eml);
        if (found.find()) bodies.put(found.group(1).trim(), eml);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return bodies;
  }
}
