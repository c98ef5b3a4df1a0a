package dev.tidings.sample;

import java.net.URI;
import java.time.Instant;
import java.util.Objects;

/**
 * What sample shop to generate. The same spec always yields byte-identical files; {@code activityEnd}
 * is the end of the week of activity (exclusive), {@code publicUrl} the base of the image URLs.
 */
public record SampleShopSpec(
    long seed,
    int products,
    int subscribers,
    Instant activityEnd,
    int eventsPerSubscriber,
    URI publicUrl) {

  public SampleShopSpec {
    Objects.requireNonNull(activityEnd, "activityEnd");
    Objects.requireNonNull(publicUrl, "publicUrl");
    if (products < 0 || subscribers < 0 || eventsPerSubscriber < 0) {
      throw new IllegalArgumentException("counts must not be negative");
    }
    String scheme = publicUrl.getScheme();
    if (!publicUrl.isAbsolute()
        || publicUrl.getHost() == null
        || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
      throw new IllegalArgumentException(
          "publicUrl must be an absolute http(s) URL, was " + publicUrl);
    }
  }

  /** A spec with a fixed activity end and the embedded default's public URL, for quick use. */
  public static SampleShopSpec of(long seed, int products, int subscribers) {
    return new SampleShopSpec(
        seed,
        products,
        subscribers,
        Instant.parse("2026-01-05T00:00:00Z"),
        20,
        URI.create("http://localhost:8080"));
  }

  public SampleShopSpec withProducts(int count) {
    return new SampleShopSpec(
        seed, count, subscribers, activityEnd, eventsPerSubscriber, publicUrl);
  }

  public SampleShopSpec withSubscribers(int count) {
    return new SampleShopSpec(seed, products, count, activityEnd, eventsPerSubscriber, publicUrl);
  }

  String baseUrl() {
    String text = publicUrl.toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }
}
