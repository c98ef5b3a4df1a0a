package dev.tidings.app;

import dev.tidings.activity.ActivityIntake;
import dev.tidings.audience.SubscriberService;
import dev.tidings.campaign.editor.SlotPreviews;
import dev.tidings.campaign.editor.SlotProduct;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.SubscriberMarkets;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.delivery.EngagementVerdicts;
import dev.tidings.message.TokenCodec;
import dev.tidings.notify.Notifications;
import dev.tidings.opentime.EngagementActivity;
import dev.tidings.opentime.EngagementRecorder;
import dev.tidings.opentime.MarketSlotRules;
import dev.tidings.opentime.SlotChooser;
import dev.tidings.opentime.SlotExpiry;
import dev.tidings.opentime.SlotImages;
import dev.tidings.opentime.TemplateProductTable;
import dev.tidings.opentime.card.ProductCards;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.recommend.Recommender;
import dev.tidings.retention.Expiring;
import dev.tidings.web.RouteGroup;
import dev.tidings.web.opentime.OpenTimeRoutes;
import io.micrometer.core.instrument.FunctionCounter;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Open-time slots: the email-facing routes over the node's coordinator (compute-once), database
 * (kept lists), the recommend capability's blended recommender, work queue (engagements) and card
 * cache under the data directory.
 */
public final class OpenTimeWiring implements Capability {
  private static final int ENGAGEMENT_BUFFER = 100_000;
  private static final int ENGAGEMENT_BATCH = 500;

  private final Infrastructure infrastructure;
  private final Lazy<TokenCodec> tokens;
  private final Lazy<TemplateProductTable> templateProducts;
  private final Lazy<MarketSlotRules> rules;
  private final Lazy<SlotChooser> chooser;
  private final Lazy<SlotImages> images;
  private final Lazy<EngagementRecorder> engagements;

  /**
   * {@code recommender}: what fills the slots; {@code computeOnce}: how the nodes agree on one list
   * per email ({@link #coordinated}, unless a program built on the engine brings its own); {@code
   * notifications}: what an email's digest told, which its slots do not show again (nor what its
   * template names: the campaign capability tells {@link #templateProducts} when it writes the emails);
   * {@code markets} and {@code subscriberMarkets}: the market a subscriber's slots are priced in.
   */
  OpenTimeWiring(
      Infrastructure infrastructure,
      Supplier<Recommender> recommender,
      Function<Infrastructure, ComputeOnce> computeOnce,
      Supplier<Notifications> notifications,
      Supplier<Markets> markets,
      Supplier<SubscriberMarkets> subscriberMarkets) {
    this.infrastructure = infrastructure;
    this.tokens = Lazy.of(() -> TokenCodec.of(infrastructure.secret()));
    this.templateProducts = Lazy.of(
        () -> new TemplateProductTable(infrastructure.database().jdbi(), infrastructure.clock()));
    this.rules = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      var catalog = new CatalogService(jdbi, infrastructure.clock());
      return new MarketSlotRules(
          notifications.get()::toldIn,
          templateProducts.get()::of,
          catalog::getAll,
          markets.get(),
          subscriberMarkets.get(),
          infrastructure.metrics());
    });
    this.chooser = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      return new SlotChooser(
          computeOnce.apply(infrastructure),
          recommender.get(),
          rules.get(),
          jdbi,
          infrastructure.clock(),
          infrastructure.metrics(),
          SlotChooser.Options.defaults());
    });
    this.images = Lazy.of(() -> {
      var jdbi = infrastructure.database().jdbi();
      return new SlotImages(
          chooser.get(),
          new ProductCards(
              infrastructure.settings().dataDir().resolve("cards"),
              ProductCards.Options.defaults(),
              infrastructure.settings().fetchAllow(),
              infrastructure.metrics()),
          new CatalogService(jdbi, infrastructure.clock()),
          new SubscriberService(jdbi, infrastructure.clock()),
          Optional.of(rules.get()),
          Optional.of(markets.get()));
    });
    this.engagements = Lazy.of(() -> {
      var recorder = new EngagementRecorder(infrastructure.workQueue(), ENGAGEMENT_BUFFER);
      FunctionCounter.builder(
              "tidings_opentime_engagements_lost", recorder, EngagementRecorder::lost)
          .description(
              "Opens and clicks a mail client's request recorded but the node could not"
                  + " queue (a full buffer, a queue that was away): missing from activity and the funnel")
          .register(infrastructure.metrics());
      return recorder;
    });
  }

  /** The node's coordination: one computation per email across every node on the same servers. */
  static ComputeOnce coordinated(Infrastructure infrastructure) {
    return infrastructure.coordination().computeOnce();
  }

  /**
   * What an email's slots would show now, for previews: the chooser's list, kept or not, asked
   * without keeping one, each product as its card would show it (priced in the subscriber's market
   * when markets are defined); a product gone since, or not sold there, is left out.
   */
  static SlotPreviews slotPreviews(SlotImages images) {
    return token -> IntStream.range(0, token.slots())
        .mapToObj(slot -> images.priced(token, slot))
        .flatMap(Optional::stream)
        .map(SlotImages.Priced::product)
        .map(product -> new SlotProduct(
            product.id(),
            product.title(),
            product.price(),
            product.currency(),
            product.imageUrl().map(url -> url.value()).orElse("")))
        .toList();
  }

  /** What each campaign's template names, as its emails' composer tells it. */
  public TemplateProductTable templateProducts() {
    return templateProducts.get();
  }

  public TokenCodec tokens() {
    return tokens.get();
  }

  /** What each slot's card shows. */
  public SlotImages images() {
    return images.get();
  }

  public SlotChooser chooser() {
    return chooser.get();
  }

  @Override
  public List<Expiring> expiring() {
    return List.of(new Expiring(
        SlotExpiry.of(infrastructure.database().jdbi()),
        infrastructure.settings().retention().messages()));
  }

  @Override
  public List<RouteGroup> routes() {
    return List.of(new OpenTimeRoutes(
        tokens.get(),
        chooser.get(),
        images.get(),
        engagements.get(),
        infrastructure.settings().shopHome(),
        infrastructure.clock(),
        infrastructure.metrics()));
  }

  @Override
  public List<ConsumerGroup> consumers() {
    return List.of(consumers -> consumers.consumeBatches(
        EngagementRecorder.TOPIC,
        1,
        ENGAGEMENT_BATCH,
        new EngagementActivity(
            new ActivityIntake(infrastructure.database().jdbi(), infrastructure.clock()),
            new EngagementVerdicts(infrastructure.database().jdbi()),
            infrastructure.metrics())));
  }

  @Override
  public void close() {
    engagements.ifBuilt().ifPresent(EngagementRecorder::close);
    chooser.ifBuilt().ifPresent(SlotChooser::close);
  }
}
