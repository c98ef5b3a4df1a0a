package dev.tidings.tools;

import dev.tidings.app.CatalogWiring;
import dev.tidings.app.Node;
import dev.tidings.catalog.Product;
import dev.tidings.demo.EngagementPlan;
import dev.tidings.demo.ReaderSimulator;
import dev.tidings.demo.SentEmail;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The demo's simulated readers: once its campaign is in the outbox, they open, click, bounce,
 * complain and shop at this node's real URLs for a few minutes, so that the dashboard moves.
 */
final class DemoReaders implements AutoCloseable {
  private static final int PRODUCTS = 200;

  private final Node node;
  private final long seed;
  private final Duration spread;
  private final ReaderSimulator simulator;

  static final String PREFERRED_SUBJECT = "are waiting";

  DemoReaders(Node node, long seed, Duration spread) {
    this.node = node;
    this.seed = seed;
    this.spread = spread;
    this.simulator = new ReaderSimulator(
        URI.create("http://127.0.0.1:" + node.port()),
        node.infrastructure().apiKey().value(),
        node.infrastructure().clock());
  }

  void start() {
    var emails = SentEmail.readOutbox(node.settings().dataDir().resolve("outbox"));
    if (emails.isEmpty()) {
      System.out.println(
          "demo readers: no emails in the outbox (is TIDINGS_SMTP_URL set?): nothing to simulate");
      return;
    }
    var products =
        node.capability(CatalogWiring.class).catalog().list(Optional.empty(), PRODUCTS).stream()
            .map(Product::id)
            .toList();
    var plan = EngagementPlan.of(emails, products, spread, seed, DemoReaders::openChance);
    System.out.printf(
        "demo readers: %,d actions on %,d emails over %d minutes (opens, prefetches, clicks, bounces,"
            + " complaints, shop activity); watch http://localhost:%d/%n",
        plan.size(), emails.size(), spread.toMinutes(), node.port());
    simulator.start(
        plan,
        done -> System.out.printf(
            "demo readers done: %,d fetches, %,d receipts, %,d shop events, %,d failed%n",
            done.fetches(), done.receipts(), done.events(), done.failures()));
  }

  /**
   * The demo campaign tests two subject lines (demo/campaign.json): readers open the one that says
   * their picks "are waiting" more often, so the experiment has a winner to find.
   */
  private static double openChance(SentEmail email) {
    return email.subject().contains(PREFERRED_SUBJECT)
        ? EngagementPlan.PERSON_OPENS
        : EngagementPlan.PERSON_OPENS * 0.7;
  }

  @Override
  public void close() {
    simulator.close();
  }
}
