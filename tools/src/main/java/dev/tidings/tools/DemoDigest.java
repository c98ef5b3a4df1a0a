package dev.tidings.tools;

import dev.tidings.app.AudienceWiring;
import dev.tidings.app.CampaignWiring;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.Node;
import dev.tidings.app.NotifyWiring;
import dev.tidings.audience.TargetType;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.sample.SampleMarkets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's digest: after its first campaign, the shop adds two new products to each of its three most
 * followed brands through the catalogue, which makes them news for those brands' followers, and sends a
 * digest campaign that tells each follower what is new (with three open-time picks below). Subscribers
 * who follow none of those brands have nothing to tell and get no digest.
 */
final class DemoDigest {
  private static final String DEFINITION = "/demo/digest.json";
  private static final int BRANDS = 3;
  private static final int PER_BRAND = 2;
  private static final Duration NEWS_WAIT = Duration.ofSeconds(30);

  private DemoDigest() {}

  static void publishAndSend(Node node) {
    try {
      List<String> added = addNewProducts(node);
      // the catalogue tells them as events; the node's relay hands them to the notifications
      awaitNews(node, added);
      System.out.printf("demo digest: %d new products of the most followed brands%n", added.size());
      long id = DemoCampaign.send(node, "demo digest", DEFINITION);
      DemoCampaign.follow(node.capability(CampaignWiring.class).campaigns(), id, "demo digest");
    } catch (RuntimeException e) {
      System.err.println("demo digest stopped: " + e.getMessage());
    }
  }

  /** Waits (a while at most) until the notifications stored each new product as news. */
  private static void awaitNews(Node node, List<String> products) {
    var notifications = node.capability(NotifyWiring.class).notifications();
    long deadline = System.nanoTime() + NEWS_WAIT.toNanos();
    for (String id : products) {
      while (notifications.get(id).isEmpty() && System.nanoTime() < deadline) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static List<String> addNewProducts(Node node) {
    var catalog = node.capability(CatalogWiring.class).catalog();
    var brands =
        node.capability(AudienceWiring.class).follows().mostFollowed(TargetType.BRAND, BRANDS);
    List<Product> shelf = catalog.list(Optional.empty(), CatalogService.MAX_PAGE);
    List<String> added = new ArrayList<>();
    for (var brand : brands) {
      var models = shelf.stream()
          .filter(product -> product.available() && product.brand().equals(Optional.of(brand.id())))
          .limit(PER_BRAND)
          .toList();
      for (Product model : models) {
        Product created = newSeason(model);
        if (catalog.create(created).isEmpty()) continue;
        added.add(created.id());
        // priced in every market, as the rest of the shop is
        node.capability(CatalogWiring.class)
            .markets()
            .putPrices(created.id(), SampleMarkets.prices(created.price(), created.currency()));
      }
    }
    return added;
  }

  private static Product newSeason(Product model) {
    return new Product(
        "new-" + model.id(),
        "New season: " + model.title(),
        model.brand(),
        model.category(),
        model.price(),
        model.currency(),
        model.imageUrl(),
        model.landingUrl(),
        true,
        model.attributes(),
        Optional.empty(),
        Optional.empty());
  }
}
