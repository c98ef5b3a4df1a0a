package dev.tidings.sample;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** Subscriber number i of a spec, computable on its own. */
final class Subscribers {
  static final List<String> COLUMNS = List.of(
      "id",
      "email",
      "name",
      "locale",
      "timeZone",
      "latitude",
      "longitude",
      "city",
      "country",
      "consent");
  private static final List<String> DOMAINS = List.of("example.com", "example.org", "example.net");

  record Subscriber(
      String id,
      String email,
      String name,
      Places.Region region,
      Places.City city,
      BigDecimal latitude,
      BigDecimal longitude,
      String consent) {}

  private final long seed;

  Subscribers(SampleShopSpec spec) {
    this.seed = spec.seed();
  }

  static String id(long index) {
    return "s-" + index;
  }

  Subscriber subscriber(long index) {
    SplittableRandom random = Rng.of(seed, Rng.SUBSCRIBER, index);
    Places.Region region = Places.region(random);
    Places.City city = Rng.pick(random, region.cities());
    String first = Rng.pick(random, region.firstNames());
    String last = Rng.pick(random, region.lastNames());
    // Roughly a town's width around the centre, so maps show clusters, not one dot per city.
    var latitude = coordinate(city.latitude() + (random.nextDouble() - 0.5) * 0.16, 90);
    var longitude = coordinate(city.longitude() + (random.nextDouble() - 0.5) * 0.24, 180);
    double c = random.nextDouble();
    String consent = c < 0.03 ? "pending" : c < 0.05 ? "unsubscribed" : "subscribed";
    return new Subscriber(
        id(index),
        email(random, first, last, index),
        first + " " + last,
        region,
        city,
        latitude,
        longitude,
        consent);
  }

  /**
   * Unique by construction: the subscriber number is always the trailing digit run, and the three
   * shapes differ in where (or whether) a dot sits, while folded names hold only letters.
   */
  private static String email(SplittableRandom random, String first, String last, long index) {
    String f = fold(first);
    String l = fold(last);
    String local = switch (random.nextInt(3)) {
      case 0 -> f + "." + l + index;
      case 1 -> f + l + "." + index;
      default -> f.charAt(0) + l + index;
    };
    return local + "@" + Rng.pick(random, DOMAINS);
  }

  /** "Łukasz" -> "lukasz", "de Jong" -> "dejong", "O'Brien" -> "obrien". */
  static String fold(String name) {
    String stripped = Normalizer.normalize(
        name.replace("ł", "l").replace("Ł", "L").replace("ø", "o").replace("Ø", "O"),
        Normalizer.Form.NFD);
    var letters = new StringBuilder(stripped.length());
    for (int i = 0; i < stripped.length(); i++) {
      char c = Character.toLowerCase(stripped.charAt(i));
      if (c >= 'a' && c <= 'z') letters.append(c);
    }
    return letters.isEmpty() ? "x" : letters.toString().toLowerCase(Locale.ROOT);
  }

  private static BigDecimal coordinate(double value, double limit) {
    return BigDecimal.valueOf(Math.clamp(value, -limit, limit)).setScale(4, RoundingMode.HALF_EVEN);
  }

  Object[] row(Subscriber s) {
    return new Object[] {
      s.id(),
      s.email(),
      s.name(),
      s.region().locale(),
      s.city().timeZone(),
      s.latitude(),
      s.longitude(),
      s.city().name(),
      s.region().country(),
      s.consent()
    };
  }
}
