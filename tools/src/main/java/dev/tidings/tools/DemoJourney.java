package dev.tidings.tools;

import dev.tidings.activity.ActivityEvent;
import dev.tidings.activity.EventType;
import dev.tidings.app.ActivityWiring;
import dev.tidings.app.AudienceWiring;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.JourneysWiring;
import dev.tidings.app.Node;
import dev.tidings.audience.Subscriber;
import dev.tidings.catalog.Product;
import dev.tidings.journeys.Journey;
import dev.tidings.journeys.JourneyState;
import dev.tidings.journeys.JourneyTemplates;
import dev.tidings.journeys.Step;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * The demo's abandoned-cart journey: made from the ready-made one on the first start of a data
 * directory, its waits shortened to minutes, and activated; then simulated shoppers fill carts over a
 * few minutes, some buy within the first wait, and the others get the reminder with their own cart's
 * products, so the journey's page moves.
 */
final class DemoJourney implements AutoCloseable {
  static final Duration FIRST_WAIT = Duration.ofMinutes(1);
  static final Duration SECOND_WAIT = Duration.ofMinutes(3);
  private static final String FROM = "shop@demo.tidings.dev";
  private static final int SHOPPERS = 120;
  private static final double BUY_SOON = 0.35;
  private static final int PRODUCTS = 200;

  private final Node node;
  private final long seed;
  private final Duration spread;
  private volatile boolean stopped;
  private Thread shoppers = Thread.ofVirtual().unstarted(() -> {});

  DemoJourney(Node node, long seed, Duration spread) {
    this.node = node;
    this.seed = seed;
    this.spread = spread;
  }

  /** Makes and activates the journey unless the data directory has one, then starts the shoppers. */
  void startOnFirstStart() {
    var journeys = node.capability(JourneysWiring.class);
    if (!journeys.store().list(Optional.empty(), 1).isEmpty()) return;
    var template = JourneyTemplates.get("abandoned_cart").orElseThrow();
    var made =
        JourneyTemplates.make(template, journeys.drafts(), journeys.store(), FROM, "Demo shop");
    var saved = journeys.store().revise(made.id(), shortened(made.journey())).orElseThrow();
    journeys.store().changeState(saved.id(), Set.of(JourneyState.DRAFT), JourneyState.ACTIVE);
    journeys.changed();
    System.out.printf(
        "demo journey %d: abandoned cart, reminder after %d minute(s), last call %d minutes later;"
            + " watch http://localhost:%d/dashboard/journeys/%d%n",
        saved.id(), FIRST_WAIT.toMinutes(), SECOND_WAIT.toMinutes(), node.port(), saved.id());
    shoppers = Thread.ofVirtual().name("demo shoppers").start(this::shop);
  }

  /** The ready-made journey with its hour and day as the demo's minutes. */
  static Journey shortened(Journey journey) {
    List<Step> steps = new ArrayList<>();
    for (Step step : journey.steps())
      steps.add(
          switch (step) {
            case Step.Wait wait
            when wait.id().equals("hour") ->
              new Step.Wait(wait.id(), new Step.Until.For(FIRST_WAIT), wait.next());
            case Step.Wait wait
            when wait.id().equals("day") ->
              new Step.Wait(wait.id(), new Step.Until.For(SECOND_WAIT), wait.next());
            default -> step;
          });
    return new Journey(
        journey.name() + " (demo)",
        journey.trigger(),
        journey.entry(),
        steps,
        journey.goal(),
        journey.holdOut());
  }

  /** Shoppers fill carts over the spread; some buy one of the products before the first wait ends. */
  private void shop() {
    var random = new Random(seed);
    List<String> people =
        node
            .capability(AudienceWiring.class)
            .subscribers()
            .list(Optional.empty(), SHOPPERS)
            .stream()
            .map(Subscriber::id)
            .toList();
    List<String> products =
        node.capability(CatalogWiring.class).catalog().list(Optional.empty(), PRODUCTS).stream()
            .map(Product::id)
            .toList();
    if (people.isEmpty() || products.isEmpty()) return;
    var intake = node.capability(ActivityWiring.class).intake();
    long pause = Math.max(1, spread.toMillis() / people.size());
    int carts = 0;
    int bought = 0;
    try {
      for (String person : people) {
        if (stopped) return;
        String item = products.get(random.nextInt(products.size()));
        intake.record(List.of(event(person, EventType.ADD_TO_CART, item)));
        carts++;
        if (random.nextDouble() < BUY_SOON) {
          String buy = item;
          long after = (long) (FIRST_WAIT.toMillis() * random.nextDouble() * 0.8);
          Thread.ofVirtual().start(() -> {
            try {
              Thread.sleep(after);
              if (!stopped) intake.record(List.of(event(person, EventType.PURCHASE, buy)));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
          bought++;
        }
        Thread.sleep(pause);
      }
      System.out.printf(
          "demo shoppers: %d carts filled, %d of them bought within the first wait%n",
          carts, bought);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // the node is stopping: the demo goes on without its shoppers
      System.err.println("demo shoppers stopped: " + e.getMessage());
    }
  }

  private static ActivityEvent event(String person, EventType type, String item) {
    return new ActivityEvent(
        Optional.empty(), person, type, item, Instant.now(), 1, Optional.empty());
  }

  @Override
  public void close() {
    stopped = true;
    shoppers.interrupt();
  }
}
