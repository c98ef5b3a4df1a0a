package dev.tidings.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;

class SampleShopTest {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
  private static final Pattern PRICE = Pattern.compile("\\d+(\\.\\d{1,2})?");
  private static final Set<String> EVENT_TYPES =
      Set.of("view", "click", "add_to_cart", "purchase", "follow", "open", "email_click");
  private static final Instant END = Instant.parse("2026-03-09T00:00:00Z");
  private static final SampleShopSpec SPEC =
      new SampleShopSpec(7, 400, 300, END, 12, URI.create("https://news.shop.example/"));
  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .build();

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(SampleFormat.class)
  void the_same_seed_writes_byte_identical_files_and_another_seed_different_ones(
      SampleFormat format) throws IOException {
    SampleShop.write(SPEC, dir.resolve("a"), format);
    SampleShop.write(SPEC, dir.resolve("b"), format);
    SampleShop.write(
        new SampleShopSpec(8, 400, 300, END, 12, SPEC.publicUrl()), dir.resolve("c"), format);

    for (String kind : List.of("products", "subscribers", "follows", "events")) {
      String name = kind + "." + format.extension();
      byte[] first = Files.readAllBytes(dir.resolve("a").resolve(name));
      assertThat(first).as(name).isEqualTo(Files.readAllBytes(dir.resolve("b").resolve(name)));
      assertThat(first)
          .as(name)
          .isNotEqualTo(Files.readAllBytes(dir.resolve("c").resolve(name)));
    }
  }

  @ParameterizedTest
  @EnumSource(SampleFormat.class)
  void every_row_follows_the_import_format_and_the_counts_match(SampleFormat format)
      throws IOException {
    var progress = new HashMap<String, Long>();
    SampleCounts counts = SampleShop.write(
        SPEC, dir, format, (kind, written, expected) -> progress.put(kind, written));
    String ext = "." + format.extension();
    var products = read(dir.resolve("products" + ext), format);
    var subscribers = read(dir.resolve("subscribers" + ext), format);
    var follows = read(dir.resolve("follows" + ext), format);
    var events = read(dir.resolve("events" + ext), format);

    assertThat(counts).isEqualTo(new SampleCounts(400, 300, follows.size(), events.size()));
    assertThat(progress).containsEntry("products", 400L).containsEntry("events", (long)
        events.size());
    assertThat(follows.size()).isBetween(300, 300 * 5);
    assertThat(events.size()).isBetween(300 * 12 / 2, 300 * 12 * 2);

    Map<String, BigDecimal> priceById = checkProducts(products);
    Set<String> subscriberIds = checkSubscribers(subscribers);
    checkFollows(follows, subscriberIds, products);
    checkEvents(events, subscriberIds, priceById);
  }

  private static Map<String, BigDecimal> checkProducts(List<Map<String, Object>> products) {
    var prices = new HashMap<String, BigDecimal>();
    var brands = new HashSet<String>();
    int unavailable = 0;
    for (var p : products) {
      assertThat(p.keySet())
          .isSubsetOf(List.of(
              "id",
              "title",
              "brand",
              "category",
              "price",
              "currency",
              "imageUrl",
              "landingUrl",
              "available",
              "attributes"));
      String id = text(p, "id");
      assertThat(id).matches(ID);
      assertThat(text(p, "title")).isNotBlank().hasSizeLessThanOrEqualTo(500);
      assertThat(text(p, "brand")).hasSizeBetween(1, 200);
      brands.add(text(p, "brand"));
      assertThat(text(p, "category")).matches("[a-z-]+/[a-z-]+/[a-z-]+");
      assertThat(text(p, "price")).matches(PRICE);
      assertThat(text(p, "price")).matches(".*\\.(99|95|00)");
      assertThat(Currency.getInstance(text(p, "currency")).getCurrencyCode())
          .isIn("EUR", "GBP", "USD");
      assertThat(text(p, "imageUrl"))
          .isEqualTo("https://news.shop.example/sample/images/" + id + ".png");
      assertThat(text(p, "landingUrl")).isEqualTo("https://shop.example/p/" + id);
      assertAbsoluteHttp(text(p, "imageUrl"));
      assertThat(text(p, "available")).isIn("true", "false");
      if (text(p, "available").equals("false")) unavailable++;
      assertThat(attributes(p))
          .containsKeys("size", "material")
          .allSatisfy((k, v) -> assertThat(v).isNotBlank());
      prices.put(id, new BigDecimal(text(p, "price")));
    }
    assertThat(prices).hasSize(products.size());
    assertThat(brands).hasSizeGreaterThan(30);
    assertThat(unavailable).isBetween(2, products.size() / 8);
    return prices;
  }

  private static Set<String> checkSubscribers(List<Map<String, Object>> subscribers) {
    var ids = new HashSet<String>();
    var emails = new HashSet<String>();
    var consents = new HashMap<String, Integer>();
    for (var s : subscribers) {
      assertThat(ids.add(text(s, "id"))).isTrue();
      assertThat(text(s, "id")).matches(ID);
      String email = text(s, "email");
      assertThat(email).matches("[a-z0-9.]+@example\\.(com|org|net)").hasSizeLessThanOrEqualTo(254);
      assertThat(emails.add(email.toLowerCase(Locale.ROOT)))
          .as("unique email %s", email)
          .isTrue();
      assertThat(text(s, "name")).hasSizeBetween(3, 200).doesNotContain("\n", "\r");
      try {
        new Locale.Builder().setLanguageTag(text(s, "locale"));
      } catch (IllformedLocaleException e) {
        throw new AssertionError("not BCP 47: " + text(s, "locale"), e);
      }
      ZoneId zone = ZoneId.of(text(s, "timeZone"));
      String country = text(s, "country");
      assertThat(Locale.getISOCountries()).contains(country);
      assertThat(text(s, "locale")).endsWith("-" + country);
      assertThat(zoneFits(zone.getId(), country)).as("%s in %s", zone, country).isTrue();
      double lat = Double.parseDouble(text(s, "latitude"));
      double lon = Double.parseDouble(text(s, "longitude"));
      assertThat(lat).isBetween(-90.0, 90.0);
      assertThat(lon).isBetween(-180.0, 180.0);
      assertThat(text(s, "city")).isNotBlank();
      consents.merge(text(s, "consent"), 1, Integer::sum);
    }
    assertThat(consents.keySet()).isSubsetOf("subscribed", "pending", "unsubscribed");
    assertThat(consents.get("subscribed")).isGreaterThan(subscribers.size() * 9 / 10);
    return ids;
  }

  /** The time zone belongs to the subscriber's country (a Berliner is not in Asia/Tokyo). */
  private static boolean zoneFits(String zone, String country) {
    return switch (country) {
      case "US" -> zone.startsWith("America/");
      case "BR" -> zone.equals("America/Sao_Paulo");
      case "JP" -> zone.equals("Asia/Tokyo");
      case "AU" -> zone.startsWith("Australia/");
      case "GB" -> zone.equals("Europe/London");
      default -> zone.startsWith("Europe/");
    };
  }

  private static void checkFollows(
      List<Map<String, Object>> follows,
      Set<String> subscriberIds,
      List<Map<String, Object>> products) {
    var brandNames = new HashSet<String>();
    products.forEach(p -> brandNames.add(text(p, "brand")));
    var brandFollows = new HashMap<String, Integer>();
    var pairs = new HashSet<String>();
    for (var f : follows) {
      assertThat(subscriberIds).contains(text(f, "subscriberId"));
      assertThat(text(f, "targetType")).isIn("brand", "category");
      assertThat(text(f, "targetId")).hasSizeBetween(1, 200);
      assertThat(pairs.add(
              text(f, "subscriberId") + "|" + text(f, "targetType") + "|" + text(f, "targetId")))
          .isTrue();
      if (text(f, "targetType").equals("brand")) {
        assertThat(brandNames).contains(text(f, "targetId"));
        brandFollows.merge(text(f, "targetId"), 1, Integer::sum);
      }
      assertThat(Instant.parse(text(f, "followedAt"))).isBefore(END);
    }
    // Skewed: the most followed brand has several times the followers of a median one.
    var counts = brandFollows.values().stream().sorted().toList();
    assertThat(counts.getLast()).isGreaterThan(3 * counts.get(counts.size() / 2));
  }

  private static void checkEvents(
      List<Map<String, Object>> events,
      Set<String> subscriberIds,
      Map<String, BigDecimal> priceById) {
    var eventIds = new HashSet<String>();
    var types = new HashMap<String, Integer>();
    var itemViews = new HashMap<String, Integer>();
    Instant weekStart = END.minus(Duration.ofDays(7));
    for (var e : events) {
      assertThat(subscriberIds).contains(text(e, "userId"));
      assertThat(text(e, "userId")).matches(ID);
      String type = text(e, "type");
      assertThat(type).isIn(EVENT_TYPES);
      types.merge(type, 1, Integer::sum);
      assertThat(priceById).containsKey(text(e, "itemId"));
      Instant at = Instant.parse(text(e, "timestamp"));
      assertThat(at).isAfterOrEqualTo(weekStart).isBefore(END);
      assertThat(eventIds.add(text(e, "eventId"))).as("unique eventId").isTrue();
      assertThat(text(e, "eventId")).hasSizeLessThanOrEqualTo(100);
      if (e.get("quantity") != null)
        assertThat(Integer.parseInt(text(e, "quantity"))).isPositive();
      if (type.equals("purchase"))
        assertThat(new BigDecimal(text(e, "price"))).isEqualTo(priceById.get(text(e, "itemId")));
      if (type.equals("view")) itemViews.merge(text(e, "itemId"), 1, Integer::sum);
    }
    assertThat(types.keySet())
        .containsExactlyInAnyOrder("view", "click", "add_to_cart", "purchase");
    assertThat(types.get("view"))
        .isGreaterThan(types.get("click"))
        .isGreaterThan(types.get("purchase"));
    // Popularity skew: the most viewed product gets far more than its fair share.
    int top = itemViews.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    assertThat(top).isGreaterThan(5 * types.get("view") / priceById.size());
  }

  @Test
  void a_million_products_stream_out_in_seconds() {
    var spec = SampleShopSpec.of(1, 1_000_000, 0);
    long rows = assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> SampleShop.writeProducts(
            spec, OutputStream.nullOutputStream(), SampleFormat.CSV, SampleProgress.NONE));
    assertThat(rows).isEqualTo(1_000_000);
  }

  @Test
  void csv_cells_with_commas_quotes_and_line_breaks_are_quoted() throws IOException {
    var out = new ByteArrayOutputStream();
    try (var sink = RowSink.open(out, SampleFormat.CSV, List.of("a", "b", "c", "d"))) {
      sink.row(new Object[] {"x,y", "say \"hi\"", "two\nlines", Map.of("k", "v,\"w\"")});
    }
    var rows = readCsv(out.toString(StandardCharsets.UTF_8));
    assertThat(rows)
        .containsExactly(Map.of(
            "a", "x,y", "b", "say \"hi\"", "c", "two\nlines", "d", "{\"k\":\"v,\\\"w\\\"\"}"));
  }

  private static void assertAbsoluteHttp(String url) {
    URI uri = URI.create(url);
    assertThat(uri.isAbsolute()).isTrue();
    assertThat(uri.getScheme()).isIn("http", "https");
    assertThat(uri.getHost()).isNotBlank();
  }

  private static String text(Map<String, Object> row, String field) {
    Object value = row.get(field);
    assertThat(value).as("field %s in %s", field, row).isNotNull();
    return value instanceof BigDecimal d ? d.toPlainString() : value.toString();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> attributes(Map<String, Object> product) {
    Object value = product.get("attributes");
    return value instanceof Map<?, ?> map
        ? (Map<String, String>) map
        : JSON.readValue(value.toString(), Map.class);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> read(Path file, SampleFormat format) throws IOException {
    if (format == SampleFormat.CSV) {
      var rows = new ArrayList<Map<String, Object>>();
      for (var row : readCsv(Files.readString(file))) {
        var copy = new HashMap<String, Object>();
        row.forEach((k, v) -> {
          if (!v.isEmpty()) copy.put(k, v); // an empty cell means "not given"
        });
        rows.add(copy);
      }
      return rows;
    }
    var rows = new ArrayList<Map<String, Object>>();
    for (String line : Files.readAllLines(file)) rows.add(JSON.readValue(line, Map.class));
    return rows;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, String>> readCsv(String text) {
    var mapper = new CsvMapper();
    try (var it = mapper
        .readerFor(Map.class)
        .with(CsvSchema.emptySchema().withHeader())
        .<Map<String, String>>readValues(text)) {
      return it.readAll();
    }
  }
}
