package dev.tidings.opentime.card;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tidings.WebUrl;
import dev.tidings.fetch.FetchPurpose;
import dev.tidings.fetch.FetchResult;
import dev.tidings.fetch.GuardedFetcher;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.MemoryCacheImageInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Product pictures, fetched once and kept already cropped to the card's picture area: in memory (a
 * bounded count) and on disk (one PNG per URL hash). A URL that failed is left alone for a while, so
 * a broken shop image is not fetched again for every card that shows it. Fetched only through the
 * {@link GuardedFetcher}: a product's image URL is input, and must not reach this node's own network.
 */
final class ProductImages {
  private static final Logger log = LoggerFactory.getLogger(ProductImages.class);
  private static final Set<String> FORMATS = Set.of("png", "jpeg", "gif");
  // A small compressed file can claim a huge canvas;
  // refuse before decoding (about 100 MB of pixels).
  private static final long MAX_PIXELS = 25_000_000L;
  private static final int MAX_REMEMBERED_FAILURES = 10_000;

  private final Path directory;
  private final ProductCards.Options options;
  private final int width;
  private final int height;
  private final GuardedFetcher fetcher;
  private final Cache<String, BufferedImage> memory;
  // URLs that failed lately: bounded against a flood of broken ones; forgetting early is harmless
  private final Cache<String, Boolean> failedLately;

  private final SingleFlight<String, Optional<BufferedImage>> flights = new SingleFlight<>();
  private final AtomicInteger fetches = new AtomicInteger();

  ProductImages(
      Path directory, ProductCards.Options options, GuardedFetcher fetcher, int width, int height) {
    this.directory = directory;
    this.options = options;
    this.width = width;
    this.height = height;
    this.fetcher = fetcher;
    this.memory = Caffeine.newBuilder().maximumSize(options.imagesInMemory()).build();
    this.failedLately = Caffeine.newBuilder()
        .maximumSize(MAX_REMEMBERED_FAILURES)
        .expireAfterWrite(options.failureMemory())
        .build();
  }

  /** The picture cropped to the card's picture area, or empty when it cannot be had right now. */
  Optional<BufferedImage> picture(WebUrl url) {
    var key = url.value();
    var cached = memory.getIfPresent(key);
    if (cached != null) return Optional.of(cached);
    if (recentlyFailed(key)) return Optional.empty();
    return flights.run(key, () -> load(key));
  }

  /** How many times a picture was requested over the network: for tests. */
  int fetches() {
    return fetches.get();
  }

  private Optional<BufferedImage> load(String url) {
    var cached = memory.getIfPresent(url);
    if (cached != null) return Optional.of(cached);
    var file = directory.resolve(fileName(url));
    var fromDisk = readDisk(file);
    if (fromDisk.isPresent()) {
      memory.put(url, fromDisk.get());
      return fromDisk;
    }
    try {
      var picture = Covers.crop(decode(fetch(url)), width, height);
      memory.put(url, picture);
      writeDisk(file, picture);
      return Optional.of(picture);
    } catch (IOException | RuntimeException e) {
      log.info("product image {} unavailable: {}", url, e.toString());
      rememberFailure(url);
      return Optional.empty();
    }
  }

  private boolean recentlyFailed(String url) {
    return failedLately.getIfPresent(url) != null;
  }

  private void rememberFailure(String url) {
    failedLately.put(url, Boolean.TRUE);
  }

  /** The picture's bytes through the guard: only from public addresses, or those allowed. */
  private byte[] fetch(String url) throws IOException {
    fetches.incrementAndGet();
    return switch (fetcher.fetch(url, FetchPurpose.PRODUCT_IMAGE)) {
      case FetchResult.Fetched fetched -> fetched.body();
      case FetchResult.Refused refused -> throw new IOException("refused: " + refused.reason());
      case FetchResult.Failed failed -> throw new IOException(failed.reason());
      // never sent a conditional request, so never answered 304
      case FetchResult.NotModified notModified -> throw new IOException("not modified");
    };
  }

  static BufferedImage decode(byte[] bytes) throws IOException {
    try (var input = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
      var readers = ImageIO.getImageReaders(input);
      while (readers.hasNext()) {
        ImageReader reader = readers.next();
        try {
          if (!FORMATS.contains(reader.getFormatName().toLowerCase(Locale.ROOT))) continue;
          reader.setInput(input, true, true);
          long pixels = (long) reader.getWidth(0) * reader.getHeight(0);
          if (pixels > MAX_PIXELS) throw new IOException("image of " + pixels + " pixels");
          return reader.read(0);
        } finally {
          reader.dispose();
        }
      }
      throw new IOException("not a PNG, JPEG or GIF image");
    }
  }

  private Optional<BufferedImage> readDisk(Path file) {
    if (!Files.isRegularFile(file)) return Optional.empty();
    try {
      var image = decode(Files.readAllBytes(file));
      if (image.getWidth() == width && image.getHeight() == height) return Optional.of(image);
    } catch (IOException e) {
      log.warn("ignoring unreadable cached image {}: {}", file, e.toString());
    }
    return Optional.empty();
  }

  private void writeDisk(Path file, BufferedImage picture) {
    try {
      var png = new ByteArrayOutputStream();
      ImageIO.write(picture, "png", png);
      DiskFiles.writeAtomically(file, png.toByteArray());
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not cache image at {}: {}", file, e.toString());
    }
  }

  private String fileName(String url) {
    // The size is part of the name: a different card layout must not pick up old crops.
    var hash = Card.sha256((width + "x" + height + " " + url).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(hash) + ".png";
  }
}
