package dev.tidings.opentime.card;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.catalog.Price;
import dev.tidings.catalog.Product;
import dev.tidings.fetch.FetchAllowance;
import dev.tidings.fetch.GuardedFetcher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Product cards for the open-time image slots. A card is rendered once per product version and
 * locale, then served from memory (bounded by bytes) or from disk under {@code cacheDirectory/cards};
 * requests racing for the same missing card wait for one rendering. Never fails for a product whose
 * picture is broken: that card simply has no picture.
 */
public final class ProductCards {
  static {
    // A server has no display; Java2D must never try to open one.
    if (System.getProperty("java.awt.headless") == null)
      System.setProperty("java.awt.headless", "true");
  }

  private static final Logger log = LoggerFactory.getLogger(ProductCards.class);
  // Part of every card's version: bump it when the layout changes, so cached cards are redrawn.
  private static final String LAYOUT = "card-layout-1";

  /**
   * @param fetchTimeout the whole fetch of a product picture, connection to last byte
   * @param maxImageBytes pictures larger than this are refused
   * @param imagesInMemory cropped pictures kept in memory (about 1.2 MB each)
   * @param cardBytesInMemory total PNG bytes of the cards kept in memory
   * @param failureMemory how long a picture URL that failed is not fetched again
   */
  public record Options(
      Duration fetchTimeout,
      long maxImageBytes,
      int imagesInMemory,
      long cardBytesInMemory,
      Duration failureMemory) {
    public Options {
      Objects.requireNonNull(fetchTimeout, "fetchTimeout");
      Objects.requireNonNull(failureMemory, "failureMemory");
      if (fetchTimeout.isNegative() || fetchTimeout.isZero())
        throw new IllegalArgumentException("fetchTimeout must be positive");
      if (failureMemory.isNegative())
        throw new IllegalArgumentException("failureMemory must not be negative");
      if (maxImageBytes <= 0 || maxImageBytes >= Integer.MAX_VALUE)
        throw new IllegalArgumentException("maxImageBytes must be between 1 and 2^31-2");
      if (imagesInMemory <= 0)
        throw new IllegalArgumentException("imagesInMemory must be positive");
      if (cardBytesInMemory <= 0)
        throw new IllegalArgumentException("cardBytesInMemory must be positive");
    }

    /** 2 s per picture, 5 MB pictures, 32 pictures and 64 MB of cards in memory, failures for 5 min. */
    public static Options defaults() {
      return new Options(
          Duration.ofSeconds(2), 5L * 1024 * 1024, 32, 64L * 1024 * 1024, Duration.ofMinutes(5));
    }
  }

  private record Key(String productId, String version, String languageTag) {}

  private final Path cardDirectory;
  private final CardRenderer renderer = new CardRenderer(CardFonts.load());
  private final ProductImages images;
  private final Cache<Key, Card> memory;
  private final SingleFlight<Key, Card> flights = new SingleFlight<>();
  private final AtomicInteger renders = new AtomicInteger();
  private volatile Optional<Card> generic = Optional.empty();

  /**
   * @param fetchAllowance the private addresses pictures may come from (none but in a demo or a
   *     shop's own network: a picture URL is input)
   */
  public ProductCards(
      Path cacheDirectory, Options options, FetchAllowance fetchAllowance, MeterRegistry metrics) {
    this.cardDirectory = cacheDirectory.resolve("cards");
    var fetcher = new GuardedFetcher(
        fetchAllowance,
        new GuardedFetcher.Limits(
            options.fetchTimeout(), options.fetchTimeout(), options.maxImageBytes(), 3),
        metrics);
    this.images = new ProductImages(
        cacheDirectory.resolve("images"),
        options,
        fetcher,
        CardRenderer.WIDTH,
        CardRenderer.PICTURE_HEIGHT);
    this.memory = Caffeine.newBuilder()
        .maximumWeight(options.cardBytesInMemory())
        .weigher((Key key, Card card) -> card.png().length)
        .recordStats()
        .build();
    CaffeineCacheMetrics.monitor(metrics, memory, "opentime_cards");
    try {
      Files.createDirectories(cardDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the card cache " + cardDirectory, e);
    }
  }

  /** The product's card, its price written as {@code locale} writes amounts in its currency. */
  public Card card(Product product, Locale locale) {
    var key = new Key(product.id(), version(product), locale.toLanguageTag());
    Card cached = memory.getIfPresent(key);
    return cached != null ? cached : flights.run(key, () -> load(key, product, locale));
  }

  /** A neutral tile with no words, for tokens or products that are not known. */
  public Card generic() {
    var card = generic;
    if (card.isPresent()) return card.get();
    // Rendering it twice in a race is harmless: the bytes are the same.
    var rendered = Card.of(renderer.renderGeneric());
    generic = Optional.of(rendered);
    return rendered;
  }

  /** How many cards were drawn (not served from a cache): for tests. */
  int renders() {
    return renders.get();
  }

  /** How many product pictures were requested over the network: for tests. */
  int imageFetches() {
    return images.fetches();
  }

  private Card load(Key key, Product product, Locale locale) {
    Card cached = memory.getIfPresent(key);
    if (cached != null) return cached;
    var file = cardDirectory.resolve(fileName(key));
    var fromDisk = readDisk(file);
    if (fromDisk.isPresent()) {
      memory.put(key, fromDisk.get());
      return fromDisk.get();
    }
    var price = Price.of(product);
    var content = new CardContent(
        product.brand().filter(brand -> !brand.isBlank()),
        product.title(),
        price.formatNow(locale),
        price.formatWas(locale));
    // a stored product read without its image URL (today's rules refuse the one it has) is drawn
    // without a picture, as when the picture cannot be fetched
    var picture = product.imageUrl().flatMap(images::picture);
    renders.incrementAndGet();
    var card = Card.of(renderer.render(content, picture));
    memory.put(key, card);
    // A card drawn without its picture is kept in memory only: once the picture is back, the next
    // process start draws it properly instead of reading the degraded card from disk for ever.
    if (picture.isPresent()) writeDisk(file, card);
    return card;
  }

  /** A hash of everything the card shows, so a changed product gets a new card. */
  private static String version(Product product) {
    var drawn = String.join(
        "\u0000",
        LAYOUT,
        product.title(),
        product.brand().orElse(""),
        product.price().toPlainString(),
        product.currency().getCurrencyCode(),
        product.imageUrl().map(url -> url.value()).orElse(""));
    // only a product on sale adds to it, so the cards of every other product keep their versions
    return hex(drawn
        + product.salePrice().map(sale -> "\u0000sale " + sale.toPlainString()).orElse(""));
  }

  private static String fileName(Key key) {
    return hex(key.productId() + "\u0000" + key.version() + "\u0000" + key.languageTag()) + ".png";
  }

  private static String hex(String text) {
    return HexFormat.of().formatHex(Card.sha256(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static Optional<Card> readDisk(Path file) {
    try {
      if (Files.isRegularFile(file)) return Optional.of(Card.of(Files.readAllBytes(file)));
    } catch (IOException | IllegalArgumentException e) {
      log.warn("ignoring unreadable cached card {}: {}", file, e.toString());
    }
    return Optional.empty();
  }

  private static void writeDisk(Path file, Card card) {
    try {
      DiskFiles.writeAtomically(file, card.png());
    } catch (IOException e) {
      log.warn("could not cache card at {}: {}", file, e.toString());
    }
  }
}
