package dev.tidings.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.Json;
import dev.tidings.WebUrl;
import dev.tidings.activity.ActivityIntake;
import dev.tidings.audience.AudienceJson;
import dev.tidings.audience.Consent;
import dev.tidings.audience.FollowService;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.SubscriberService;
import dev.tidings.audience.TargetType;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.Product;
import dev.tidings.catalog.ProductJson;
import dev.tidings.storage.Database;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.assertj.core.groups.Tuple;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bulk import of every kind, good and bad files, on every database. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class ImportContract {
  private static final Instant NOW = Instant.parse("2025-05-01T08:00:00Z");
  private static final String PRODUCT_HEADER =
      "id,title,brand,category,price,currency,imageUrl,landingUrl,available,attributes\n";

  private Database database;
  private CatalogService catalog;
  private SubscriberService subscribers;
  private FollowService follows;
  private ActivityIntake activity;

  @TempDir
  Path dir;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    catalog = new CatalogService(database.jdbi(), InstantSource.fixed(NOW));
    subscribers = new SubscriberService(database.jdbi(), InstantSource.fixed(NOW));
    follows = new FollowService(database.jdbi(), InstantSource.fixed(NOW));
    activity = new ActivityIntake(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> {
      handle.execute(
          "TRUNCATE products, product_prices, markets, subscribers, follows, suppressions, activity_events");
      handle.execute("DROP TRIGGER IF EXISTS fail_on_boom ON products");
    });
  }

  private Path file(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  // ---- good files

  private static final String PRODUCT_FIELDS =
      "\"title\":\"T\",\"price\":\"10.00\",\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/1\","
          + "\"landingUrl\":\"https://s.example/1\"";

  private Markets gbAndJapan() {
    var markets = new Markets(database.jdbi(), InstantSource.fixed(NOW));
    markets.put(new Market("GB", Currency.getInstance("GBP"), Locale.UK, List.of("GB"), true));
    markets.put(new Market("JP", Currency.getInstance("JPY"), Locale.JAPAN, List.of("JP"), false));
    return markets;
  }

  private static String productLine(String id, String more) {
    return "{\"id\":\"" + id + "\"," + PRODUCT_FIELDS + more + "}\n";
  }

  @Test
  void market_prices_import_from_json_lines_and_csv_and_replace_those_listed() throws IOException {
    Markets markets = gbAndJapan();
    var first = catalog.importFile(
        file(
            "p.jsonl",
            productLine("p1", ",\"prices\":{\"GB\":\"8.99\",\"JP\":\"1500\"}")
                + productLine("p2", ",\"prices\":{\"GB\":\"1.00\"}")
                + productLine("p2", ",\"prices\":{\"JP\":\"120\"}")
                + productLine("p3", ",\"prices\":{\"GB\":\"3.00\"}")),
        ImportOptions.defaults());
    assertThat(first.errors()).isEmpty();
    assertThat(first.imported()).isEqualTo(4);
    assertThat(markets.prices("p1"))
        .isEqualTo(Map.of("GB", new BigDecimal("8.99"), "JP", new BigDecimal("1500")));
    // the last row of a product wins, prices included
    assertThat(markets.prices("p2")).isEqualTo(Map.of("JP", new BigDecimal("120")));

    // CSV: the prices are one cell of JSON, as attributes are; listed prices replace, an empty
    // object removes, an empty cell leaves the prices alone
    var second = catalog.importFile(
        file(
            "p.csv",
            "id,title,price,currency,image_url,landing_url,prices\n"
                + "p1,T,10.00,EUR,https://i.example/1,https://s.example/1,\"{\"\"GB\"\":\"\"7.50\"\"}\"\n"
                + "p2,T,10.00,EUR,https://i.example/1,https://s.example/1,{}\n"
                + "p3,T,10.00,EUR,https://i.example/1,https://s.example/1,\n"),
        ImportOptions.defaults());
    assertThat(second.errors()).isEmpty();
    assertThat(markets.prices("p1")).isEqualTo(Map.of("GB", new BigDecimal("7.50")));
    assertThat(markets.prices("p2")).isEmpty();
    assertThat(markets.prices("p3")).isEqualTo(Map.of("GB", new BigDecimal("3.00")));
  }

  @Test
  void bad_market_prices_are_reported_at_their_line_naming_the_market() throws IOException {
    Markets markets = gbAndJapan();
    var report = catalog.importFile(
        file(
            "p.jsonl",
            productLine("ok", ",\"prices\":{\"GB\":\"5\"}")
                + productLine("nomarket", ",\"prices\":{\"XX\":\"5\"}")
                + productLine("decimals", ",\"prices\":{\"JP\":\"1.5\"}")
                + productLine("negative", ",\"prices\":{\"GB\":\"-1\"}")
                + productLine("text", ",\"prices\":{\"GB\":\"cheap\"}")
                + productLine("number", ",\"prices\":{\"GB\":5}")
                + productLine("huge", ",\"prices\":{\"GB\":\"1e999999\"}")),
        ImportOptions.defaults());
    assertThat(report.errors()).extracting(RowError::line).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
    assertThat(report.errors())
        .extracting(RowError::reason)
        .containsExactly(
            "prices.XX names no market (define it with PUT /api/v1/markets/{code})",
            "prices.JP must have at most 0 decimal places for JPY, got 1.5",
            "prices.GB must be a price of zero or more",
            "prices.GB must be a decimal such as 12.99, got 'cheap'",
            "prices must be an object whose values are strings",
            "prices.GB must have at most 30 digits before and after the decimal point, got '1e999999'");
    // a row with a bad price is refused whole: neither the product nor any of its prices is written
    assertThat(catalog.count()).isEqualTo(1);
    assertThat(markets.prices("ok")).isEqualTo(Map.of("GB", new BigDecimal("5")));
    assertThat(markets.prices("nomarket")).isEmpty();
  }

  @Test
  void all_or_nothing_writes_no_product_and_no_price_when_one_price_is_bad() throws IOException {
    Markets markets = gbAndJapan();
    var report = catalog.importFile(
        file(
            "p.csv",
            "id,title,price,currency,imageUrl,landingUrl,prices\n"
                + "ok,T,1,EUR,https://i.example/1,https://s.example/1,\"{\"\"GB\"\":\"\"1.00\"\"}\"\n"
                + "bad,T,1,EUR,https://i.example/1,https://s.example/1,\"{\"\"GB\"\":\"\"1.001\"\"}\"\n"),
        ImportOptions.allOrNothing());
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(0L, 1L, false);
    assertThat(report.errors())
        .containsExactly(
            new RowError(3L, "prices.GB must have at most 2 decimal places for GBP, got 1.001"));
    assertThat(catalog.count()).isZero();
    assertThat(markets.prices("ok")).isEmpty();
  }

  @Test
  void a_subscriber_market_imports_round_trips_through_the_api_json_and_survives_rows_without_it()
      throws IOException {
    var report = subscribers.importFile(
        file(
            "s.csv",
            "id,email,market\n"
                + "s1,a@example.com,GB\n"
                + "s2,b@example.com,\n"
                + "s3,c@example.com,gb\n"),
        ImportOptions.defaults());
    assertThat(report.errors())
        .containsExactly(new RowError(
            4L, "market must be 2-16 characters of A-Z 0-9 _ starting with a letter, got 'gb'"));
    var s1 = subscribers.get("s1").orElseThrow();
    assertThat(s1.market()).contains("GB");
    assertThat(subscribers.get("s2").orElseThrow().market()).isEmpty();
    // a market need not exist yet (a code, as the market route takes it),
    // and the API's JSON carries it
    assertThat(AudienceJson.toJson(s1).get("market").stringValue()).isEqualTo("GB");
    assertThat(AudienceJson.subscriberFromJson(AudienceJson.toJson(s1))).isEqualTo(s1);

    var again = subscribers.importFile(
        file(
            "s.jsonl",
            "{\"id\":\"s1\",\"email\":\"a@example.com\",\"name\":\"Ada\"}\n"
                + "{\"id\":\"s2\",\"email\":\"b@example.com\",\"market\":\"DE_B2B\"}\n"),
        ImportOptions.defaults());
    assertThat(again.errors()).isEmpty();
    // a row without a market keeps the one named before; one with a market replaces it
    assertThat(subscribers.get("s1").orElseThrow().market()).contains("GB");
    assertThat(subscribers.get("s1").orElseThrow().name()).contains("Ada");
    assertThat(subscribers.get("s2").orElseThrow().market()).contains("DE_B2B");
    assertThat(subscribers.placements(List.of("s2")).get("s2").market()).contains("DE_B2B");
  }

  @Test
  void a_csv_file_round_trips_every_product_field() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "p1,\"Shoe, \"\"red\"\"\",Acme,women/shoes/sneakers,19.90,EUR,https://i.example/1.jpg,https://s.example/1,false,"
                + "\"{\"\"color\"\":\"\"red\"\",\"\"size\"\":\"\"42\"\"}\"\n"
                + "p2,Plain,,,0,JPY,http://i.example/2.png,http://s.example/2,,\n"),
        ImportOptions.defaults());

    assertThat(report.errors()).isEmpty();
    assertThat(report)
        .extracting(
            ImportReport::rowsRead,
            ImportReport::imported,
            ImportReport::rejected,
            ImportReport::committed)
        .containsExactly(2L, 2L, 0L, true);
    assertThat(catalog.get("p1"))
        .contains(new Product(
            "p1",
            "Shoe, \"red\"",
            Optional.of("Acme"),
            Optional.of("women/shoes/sneakers"),
            new BigDecimal("19.90"),
            Currency.getInstance("EUR"),
            WebUrl.of("https://i.example/1.jpg"),
            WebUrl.of("https://s.example/1"),
            false,
            Map.of("color", "red", "size", "42")));
    Product plain = catalog.get("p2").orElseThrow();
    assertThat(plain.brand()).isEmpty();
    assertThat(plain.available()).isTrue();
    assertThat(plain.attributes()).isEmpty();
  }

  @Test
  void a_json_lines_file_round_trips_through_the_same_json_as_the_api() throws IOException {
    String line =
        "{\"id\":\"p1\",\"title\":\"Lamp\",\"brand\":\"Lux\",\"category\":\"home/light\",\"price\":12.50,"
            + "\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/l.jpg\",\"landingUrl\":\"https://s.example/l\","
            + "\"available\":true,\"attributes\":{\"watt\":\"40\"}}";
    var report = catalog.importFile(file("p.jsonl", line + "\n\n"), ImportOptions.defaults());
    assertThat(report.imported()).isEqualTo(1);
    Product stored = catalog.get("p1").orElseThrow();
    assertThat(stored.price().toPlainString()).isEqualTo("12.50");
    assertThat(ProductJson.toJson(stored)).isEqualTo(Json.MAPPER.readTree(line));
    assertThat(ProductJson.fromJson(ProductJson.toJson(stored))).isEqualTo(stored);
  }

  @Test
  void subscribers_follows_and_events_import_from_csv_and_json_lines() throws IOException {
    var subscriberReport = subscribers.importFile(
        file(
            "s.csv",
            "id,email,name,locale,timeZone,latitude,longitude,city,country,consent\n"
                + "s1,Ada@Example.com,Ada,de-DE,Europe/Berlin,52.52,13.405,Berlin,DE,pending\n"
                + "s2,b@example.com,,,,,,,,\n"),
        ImportOptions.defaults());
    assertThat(subscriberReport.errors()).isEmpty();
    var ada = subscribers.get("s1").orElseThrow();
    assertThat(ada.consent()).isEqualTo(Consent.PENDING);
    assertThat(ada.locale().toLanguageTag()).isEqualTo("de-DE");
    assertThat(ada.location().orElseThrow().point().orElseThrow().latitude()).isEqualTo(52.52);
    var b = subscribers.get("s2").orElseThrow();
    assertThat(b.timeZone().getId()).isEqualTo("Z");
    assertThat(b.locale().toLanguageTag()).isEqualTo("en");

    var followReport = follows.importFile(
        file(
            "f.ndjson",
            "{\"subscriberId\":\"s1\",\"targetType\":\"artist\",\"targetId\":\"Hockney\",\"followedAt\":\"2024-01-02T03:04:05Z\"}\n"
                + "{\"subscriberId\":\"s2\",\"targetType\":\"artist\",\"targetId\":\"Hockney\"}\n"),
        ImportOptions.defaults());
    assertThat(followReport.imported()).isEqualTo(2);
    assertThat(
            follows.followers(new FollowTarget(TargetType.ARTIST, "Hockney"), Optional.empty(), 10))
        .extracting(f -> f.subscriberId() + "@" + f.followedAt())
        .containsExactly("s1@2024-01-02T03:04:05Z", "s2@" + NOW);

    var events = activity.importEvents(
        file(
            "e.csv",
            "userId,type,itemId,timestamp,eventId,quantity,price\n"
                + "u1,purchase,p1,2025-01-01T00:00:00Z,e1,2,9.99\n"
                + "u1,view,p1,2025-01-01T00:00:00Z,,,\n"
                + "u1,purchase,p1,2025-01-01T00:00:00Z,e1,2,9.99\n"),
        ImportOptions.defaults());
    assertThat(events)
        .extracting(ImportReport::imported, ImportReport::ignored, ImportReport::rejected)
        .containsExactly(2L, 1L, 0L);
    var replay = activity.importEvents(
        file(
            "e2.jsonl",
            "{\"userId\":\"u1\",\"type\":\"purchase\",\"itemId\":\"p1\",\"timestamp\":\"2025-01-01T00:00:00Z\",\"eventId\":\"e1\"}\n"),
        ImportOptions.defaults());
    assertThat(replay.ignored()).isEqualTo(1);
    assertThat(activity.count()).isEqualTo(2);
  }

  @Test
  void gzip_is_read_from_a_gz_file_and_from_a_stream_by_its_content() throws IOException {
    var bytes = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write((PRODUCT_HEADER + "p1,Zipped,,,1,EUR,https://i.example/1,https://s.example/1,,\n")
          .getBytes(StandardCharsets.UTF_8));
    }
    Path gzFile = Files.write(dir.resolve("p.csv.gz"), bytes.toByteArray());
    assertThat(catalog.importFile(gzFile, ImportOptions.defaults()).imported()).isEqualTo(1);
    catalog.delete("p1");
    var report = catalog.importStream(
        new ByteArrayInputStream(bytes.toByteArray()),
        Format.ofContentType("text/csv; charset=utf-8"),
        ImportOptions.defaults());
    assertThat(report.imported()).isEqualTo(1);
    assertThat(catalog.get("p1").orElseThrow().title()).isEqualTo("Zipped");
  }

  @Test
  void a_body_that_starts_like_gzip_but_is_not_imports_nothing_and_says_why() throws IOException {
    var whole = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(whole)) {
      gz.write((PRODUCT_HEADER + "p1,Zipped,,,1,EUR,https://i.example/1,https://s.example/1,,\n")
          .getBytes(StandardCharsets.UTF_8));
    }
    byte[] complete = whole.toByteArray();
    byte[] badHeader = {0x1f, (byte) 0x8b, 8, 0, 0x22, 0x3a};
    byte[] cutShort = Arrays.copyOf(complete, complete.length / 2);
    byte[] corrupted = complete.clone();
    for (int i = 12; i < corrupted.length - 8; i++) corrupted[i] ^= 0x5a;
    for (Format format : Format.values()) {
      for (byte[] body : List.of(badHeader, cutShort, corrupted)) {
        var report =
            catalog.importStream(new ByteArrayInputStream(body), format, ImportOptions.defaults());
        assertThat(report.imported()).isZero();
        assertThat(report.failure()).hasValueSatisfying(f -> assertThat(f).contains("gzip"));
      }
    }
    assertThat(catalog.get("p1")).isEmpty();
  }

  @Test
  void duplicate_ids_in_one_file_let_the_last_row_win() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "p1,First,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "p2,Other,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "p1,Last,,,2,EUR,https://i.example/1,https://s.example/1,,\n"),
        ImportOptions.defaults());
    assertThat(report.imported()).isEqualTo(3);
    assertThat(catalog.count()).isEqualTo(2);
    assertThat(catalog.get("p1").orElseThrow().title()).isEqualTo("Last");
  }

  // ---- bad rows

  @Test
  void every_bad_csv_row_is_reported_at_its_line_and_the_valid_rows_are_imported()
      throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n" // line 2
                + "bad1,,,,1,EUR,https://i.example/1,https://s.example/1,,\n" // 3: missing title
                + "bad2,T,,,1,EUR,ftp://i.example/1,https://s.example/1,,\n" // 4: bad URL
                + "bad3,T,,,1,EURO,https://i.example/1,https://s.example/1,,\n" // 5: bad currency
                + "bad4,T,,,cheap,EUR,https://i.example/1,https://s.example/1,yes,\n" // 6: wrong
                // types
                + "bad5,\"multi\nline\ntitle\",,,1,EUR,https://i.example/1,https://s.example/1,,,extra\n" // 7-9: too many cells
                + "bad6,T,,,1,EUR,https://i.example/1,https://s.example/1,,\"[1,2]\"\n" // 10:
                // attributes not an object
                + "ok2,\"Also\nfine\",,,1,EUR,https://i.example/1,https://s.example/1,,\n" // 11-12
                + "bad7,T,,,1.999,EUR,https://i.example/1,https://s.example/1,,\n"), // 13: too many
        // decimals
        ImportOptions.defaults());

    assertThat(report.errors())
        .extracting(RowError::line, RowError::reason)
        .containsExactly(
            Tuple.tuple(3L, "missing required field 'title'"),
            Tuple.tuple(4L, "imageUrl must be an absolute http(s) URL, got 'ftp://i.example/1'"),
            Tuple.tuple(5L, "currency must be an ISO 4217 code such as EUR, got 'EURO'"),
            Tuple.tuple(
                6L,
                "price must be a decimal number, got 'cheap'; available must be true or false, got 'yes'"),
            Tuple.tuple(7L, "the record has 11 cells but the header has 10 columns"),
            Tuple.tuple(10L, "attributes must be a JSON object of strings, got '[1,2]'"),
            Tuple.tuple(13L, "price must have at most 2 decimal places for EUR, got 1.999"));
    assertThat(report)
        .extracting(
            ImportReport::rowsRead,
            ImportReport::imported,
            ImportReport::rejected,
            ImportReport::committed)
        .containsExactly(9L, 2L, 7L, true);
    assertThat(catalog.list(Optional.empty(), 10))
        .extracting(Product::id)
        .containsExactly("ok1", "ok2");
    assertThat(catalog.get("ok2").orElseThrow().title()).isEqualTo("Also\nfine");
  }

  @Test
  void every_bad_json_line_is_reported_at_its_line() throws IOException {
    String ok =
        "{\"id\":\"ok\",\"title\":\"T\",\"price\":1,\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/1\",\"landingUrl\":\"https://s.example/1\"}";
    var report = catalog.importFile(
        file(
            "p.jsonl",
            ok + "\n"
                + "{\"id\":\"x\", \"title\": \n" // 2: malformed
                + "\n" // 3: blank, skipped
                + "{\"id\":\"y\",\"titel\":\"T\",\"price\":1,\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/1\",\"landingUrl\":\"https://s.example/1\"}\n"
                + "{\"id\":\"z\",\"title\":\"T\",\"price\":true,\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/1\",\"landingUrl\":\"https://s.example/1\",\"available\":\"yes\"}\n"
                + "[1,2]\n"),
        ImportOptions.defaults());
    assertThat(report.errors()).extracting(RowError::line).containsExactly(2L, 4L, 5L, 6L);
    assertThat(report.errors().get(0).reason()).startsWith("malformed JSON: ");
    assertThat(report.errors().get(1).reason())
        .startsWith("unknown field 'titel' (fields: id, title, brand,");
    assertThat(report.errors().get(2).reason())
        .isEqualTo(
            "price must be a number, got a boolean; available must be true or false, got a string");
    assertThat(report.errors().get(3).reason()).isEqualTo("expected a JSON object, got array");
    assertThat(report.imported()).isEqualTo(1);
    assertThat(catalog.count()).isEqualTo(1);
  }

  @Test
  void all_or_nothing_imports_nothing_when_one_row_is_bad_but_reports_it() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "bad,Fine,,,1,EUR,not a url,https://s.example/1,,\n"),
        ImportOptions.allOrNothing());
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(0L, 1L, false);
    assertThat(report.errors()).extracting(RowError::line).containsExactly(3L);
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_nul_in_one_csv_row_rejects_that_row_at_its_line_and_imports_the_others()
      throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "nul,Eve\u0000X,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "ok2,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"),
        ImportOptions.defaults());
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(2L, 1L, true);
    assertThat(report.errors()).extracting(RowError::line).containsExactly(3L);
    assertThat(report.errors().get(0).reason()).startsWith("title ").contains("NUL");
    assertThat(catalog.get("ok2")).isPresent();
    assertThat(catalog.get("nul")).isEmpty();
  }

  @Test
  void a_nul_in_a_json_line_rejects_that_line_naming_the_field() throws IOException {
    String line =
        "{\"id\":\"%s\",\"title\":\"%s\",\"price\":1,\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/1\",\"landingUrl\":\"https://s.example/1\",\"attributes\":{\"k\":\"%s\"}}\n";
    var report = catalog.importFile(
        file("p.jsonl", line.formatted("ok", "T", "v") + line.formatted("nul", "T", "a\\u0000b")),
        ImportOptions.defaults());
    assertThat(report.errors()).extracting(RowError::line).containsExactly(2L);
    assertThat(report.errors().getFirst().reason()).contains("attributes.k").contains("NUL");
    assertThat(report.imported()).isEqualTo(1);
  }

  @Test
  void a_decimal_past_any_price_rejects_its_row_only() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "big,Fine,,,1e200000,EUR,https://i.example/1,https://s.example/1,,\n"),
        ImportOptions.defaults());
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(1L, 1L, true);
    assertThat(report.errors()).extracting(RowError::line).containsExactly(3L);
    assertThat(report.errors().getFirst().reason()).startsWith("price must have at most");
  }

  @Test
  void all_or_nothing_refuses_a_file_with_a_nul_naming_its_line() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "nul,Fine,Ac\u0000me,,1,EUR,https://i.example/1,https://s.example/1,,\n"),
        ImportOptions.allOrNothing());
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(0L, 1L, false);
    assertThat(report.errors()).extracting(RowError::line).containsExactly(3L);
    assertThat(report.errors().getFirst().reason()).startsWith("brand ");
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_products_csv_header_may_spell_fields_in_snake_case() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            "id,title,price,currency,image_url,landing_url\n"
                + "p1,Lamp,12.50,EUR,https://i.example/l.jpg,https://s.example/l\n"),
        ImportOptions.defaults());
    assertThat(report.errors()).isEmpty();
    assertThat(report.imported()).isEqualTo(1);
    Product lamp = catalog.get("p1").orElseThrow();
    assertThat(lamp.imageUrl()).contains(WebUrl.of("https://i.example/l.jpg"));
    assertThat(lamp.landingUrl()).contains(WebUrl.of("https://s.example/l"));
  }

  @Test
  void subscribers_and_follows_csv_headers_may_spell_fields_in_snake_case() throws IOException {
    var subscriberReport = subscribers.importFile(
        file(
            "s.csv",
            "id,email,time_zone,latitude,longitude\n"
                + "s1,a@example.com,Europe/Berlin,52.52,13.405\n"),
        ImportOptions.defaults());
    assertThat(subscriberReport.errors()).isEmpty();
    var ada = subscribers.get("s1").orElseThrow();
    assertThat(ada.timeZone().getId()).isEqualTo("Europe/Berlin");
    assertThat(ada.location().orElseThrow().point().orElseThrow().longitude()).isEqualTo(13.405);

    var followReport = follows.importFile(
        file(
            "f.csv",
            "subscriber_id,target_type,target_id,followed_at\n"
                + "s1,artist,Hockney,2024-01-02T03:04:05Z\n"),
        ImportOptions.defaults());
    assertThat(followReport.errors()).isEmpty();
    assertThat(follows.followsOf("s1"))
        .extracting(f -> f.target().id() + "@" + f.followedAt())
        .containsExactly("Hockney@2024-01-02T03:04:05Z");
  }

  @Test
  void a_header_naming_one_field_twice_is_malformed_whatever_the_spelling() throws IOException {
    var twoSpellings = catalog.importFile(
        file(
            "p.csv",
            "id,title,price,currency,imageUrl,landing_url,image_url\n"
                + "p1,Lamp,1,EUR,https://i.example/1,https://s.example/1,https://i.example/2\n"),
        ImportOptions.defaults());
    assertThat(twoSpellings.committed()).isFalse();
    assertThat(twoSpellings.failure())
        .hasValueSatisfying(failure -> assertThat(failure)
            .startsWith("columns 'imageUrl' and 'image_url' both name the field 'imageUrl'"));
    assertThat(twoSpellings.errors()).extracting(RowError::line).containsExactly(1L);

    var sameSpelling = subscribers.importFile(
        file("s.csv", "id,email,time_zone,time_zone\ns1,a@example.com,UTC,UTC\n"),
        ImportOptions.defaults());
    assertThat(sameSpelling.committed()).isFalse();
    assertThat(sameSpelling.failure())
        .hasValueSatisfying(failure ->
            assertThat(failure).startsWith("column 'time_zone' appears twice in the header"));
    assertThat(catalog.count()).isZero();
    assertThat(subscribers.count()).isZero();
  }

  @Test
  void json_fields_are_named_in_camel_case_only() throws IOException {
    var report = catalog.importFile(
        file(
            "p.jsonl",
            "{\"id\":\"p1\",\"title\":\"T\",\"price\":1,\"currency\":\"EUR\","
                + "\"image_url\":\"https://i.example/1\",\"landingUrl\":\"https://s.example/1\"}\n"),
        ImportOptions.defaults());
    assertThat(report.errors())
        .singleElement()
        .satisfies(error -> assertThat(error.reason()).startsWith("unknown field 'image_url'"));
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_malformed_header_imports_nothing_and_says_why() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            "id,title,prise,currency,imageUrl,landingUrl\n"
                + "ok1,Fine,1,EUR,https://i.example/1,https://s.example/1\n"),
        ImportOptions.defaults());
    assertThat(report.committed()).isFalse();
    assertThat(report.imported()).isZero();
    assertThat(report.failure())
        .hasValueSatisfying(failure -> assertThat(failure)
            .contains("unknown column 'prise' in the header")
            .contains("the header lacks the required column 'price'"));
    assertThat(report.errors()).extracting(RowError::line).containsExactly(1L);
    assertThat(catalog.count()).isZero();

    var empty = catalog.importFile(file("empty.csv", ""), ImportOptions.defaults());
    assertThat(empty.failure()).hasValueSatisfying(f -> assertThat(f).contains("header row"));
  }

  @Test
  void broken_quoting_fails_the_whole_file() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "bad,\"never closed,,,1,EUR,https://i.example/1,https://s.example/1,,\n"),
        ImportOptions.defaults());
    assertThat(report.committed()).isFalse();
    assertThat(report.failure()).isPresent();
    assertThat(catalog.count()).isZero();
  }

  @Test
  void a_database_failure_during_the_merge_leaves_nothing() throws IOException {
    database.jdbi().useHandle(handle -> {
      handle.execute("""
          CREATE OR REPLACE FUNCTION fail_on_boom() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.title = 'boom' THEN RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END $$""");
      handle.execute(
          "CREATE TRIGGER fail_on_boom BEFORE INSERT ON products FOR EACH ROW EXECUTE FUNCTION fail_on_boom()");
    });
    Path input = file(
        "p.csv",
        PRODUCT_HEADER
            + "ok1,Fine,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
            + "zz,boom,,,1,EUR,https://i.example/1,https://s.example/1,,\n");
    assertThatThrownBy(() -> catalog.importFile(input, ImportOptions.defaults()))
        .isInstanceOf(ImportFailedException.class)
        .hasMessageContaining("nothing was imported")
        .hasMessageContaining("boom refused");
    assertThat(catalog.count()).isZero();
  }

  @Test
  void subscribers_whose_email_belongs_to_another_id_are_refused_at_their_line()
      throws IOException {
    subscribers.importFile(
        file("s0.csv", "id,email\nold,taken@example.com\n"), ImportOptions.defaults());
    var report = subscribers.importFile(
        file(
            "s.csv",
            "id,email,latitude\n"
                + "s1,TAKEN@example.com,\n" // 2: belongs to 'old'
                + "s2,x@example.com,\n" // 3
                + "s3,X@example.com,\n" // 4: used by s2 on line 3
                + "s4,y@example.com,50\n" // 5: latitude without longitude
                + "s5,not-an-email,\n" // 6
                + "old,taken@example.com,\n"),
        ImportOptions.defaults());
    assertThat(report.errors())
        .extracting(RowError::line, RowError::reason)
        .containsExactly(
            Tuple.tuple(2L, "email TAKEN@example.com already belongs to subscriber old"),
            Tuple.tuple(4L, "email X@example.com is already used by subscriber s2 on line 3"),
            Tuple.tuple(5L, "latitude and longitude go together: give both or neither"),
            Tuple.tuple(6L, "email must be an address name@domain with an @, got 'not-an-email'"));
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected)
        .containsExactly(2L, 4L);
    assertThat(subscribers.list(Optional.empty(), 10))
        .extracting(s -> s.id())
        .containsExactly("old", "s2");
  }

  @Test
  void follows_of_unknown_subscribers_are_reported_and_the_others_imported() throws IOException {
    subscribers.importFile(file("s.csv", "id,email\ns1,a@example.com\n"), ImportOptions.defaults());
    var report = follows.importFile(
        file(
            "f.csv",
            "subscriberId,targetType,targetId,followedAt\n"
                + "s1,brand,acme,\n"
                + "ghost,brand,acme,\n"
                + "s1,planet,mars,\n"
                + "s1,gallery,tate,yesterday\n"),
        ImportOptions.defaults());
    assertThat(report.errors())
        .extracting(RowError::line, RowError::reason)
        .containsExactly(
            Tuple.tuple(3L, "subscriber ghost does not exist"),
            Tuple.tuple(
                4L, "targetType must be brand, artist, gallery, store or category, got 'planet'"),
            Tuple.tuple(
                5L,
                "followedAt must be an ISO-8601 instant such as 2024-05-01T12:00:00Z, got 'yesterday'"));
    assertThat(report.imported()).isEqualTo(1);
    assertThat(follows.followsOf("s1")).hasSize(1);
  }

  @Test
  void progress_is_reported_and_errors_are_capped() throws IOException {
    var content = new StringBuilder(PRODUCT_HEADER);
    for (int i = 0; i < 25_000; i++)
      content.append("p").append(i).append(",T,,,1,EUR,nope,https://s.example/1,,\n");
    List<Long> progress = new ArrayList<>();
    var report = catalog.importFile(
        file("p.csv", content.toString()), ImportOptions.defaults().withProgress(progress::add));
    assertThat(progress).containsExactly(10_000L, 20_000L, 25_000L);
    assertThat(report.rejected()).isEqualTo(25_000);
    assertThat(report.errors()).hasSize(ImportLimits.MAX_REPORTED_ERRORS);
    assertThat(report.truncatedErrors()).isTrue();
  }

  // ---- chunks (tiny chunks so that a few rows cross their boundaries)

  private static final String P = ",T,,,1,EUR,https://i.example/1,https://s.example/1,,\n";

  @Test
  void a_duplicate_id_split_across_chunks_lets_the_last_row_win() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER
                + "p1,First,,,1,EUR,https://i.example/1,https://s.example/1,,\n"
                + "p2" + P + "p3" + P
                + "p1,Last,,,2,EUR,https://i.example/1,https://s.example/1,,\n"
                + "p4" + P),
        ImportOptions.defaults().withChunkRows(2));
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(5L, 0L, true);
    assertThat(catalog.count()).isEqualTo(4);
    assertThat(catalog.get("p1").orElseThrow().title()).isEqualTo("Last");
  }

  @Test
  void a_bad_row_in_the_last_chunk_imports_nothing_when_all_or_nothing() throws IOException {
    var report = catalog.importFile(
        file(
            "p.csv",
            PRODUCT_HEADER + "p1" + P + "p2" + P + "p3" + P + "p4" + P
                + "p5,T,,,1,EUR,nope,https://s.example/1,,\n"),
        ImportOptions.allOrNothing().withChunkRows(2));
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected, ImportReport::committed)
        .containsExactly(0L, 1L, false);
    assertThat(report.errors()).extracting(RowError::line).containsExactly(6L);
    assertThat(catalog.count()).isZero();
  }

  @Test
  void an_email_taken_in_an_earlier_chunk_is_refused_at_its_line() throws IOException {
    var report = subscribers.importFile(
        file(
            "s.csv",
            "id,email\n"
                + "s1,a@example.com\n" + "s2,b@example.com\n" // chunk 1 (lines 2-3)
                + "s3,c@example.com\n" + "s4,A@example.com\n" // chunk 2: line 5 takes s1's email
                + "s1,a2@example.com\n"),
        ImportOptions.defaults().withChunkRows(2));
    assertThat(report.errors())
        .extracting(RowError::line, RowError::reason)
        .containsExactly(Tuple.tuple(5L, "email A@example.com already belongs to subscriber s1"));
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::rejected)
        .containsExactly(4L, 1L);
    assertThat(subscribers.get("s1").orElseThrow().email()).isEqualTo("a2@example.com");
  }

  @Test
  void replayed_events_across_chunks_are_ignored() throws IOException {
    var report = activity.importEvents(
        file(
            "e.csv",
            "userId,type,itemId,timestamp,eventId\n"
                + "u1,view,p1,2025-01-01T00:00:00Z,e1\n" + "u1,view,p1,2025-01-01T00:00:00Z,e2\n"
                + "u1,view,p1,2025-01-01T00:00:00Z,e3\n" + "u1,view,p1,2025-01-01T00:00:00Z,e1\n"),
        ImportOptions.defaults().withChunkRows(2));
    assertThat(report)
        .extracting(ImportReport::imported, ImportReport::ignored)
        .containsExactly(3L, 1L);
    assertThat(activity.count()).isEqualTo(3);
  }

  @Test
  void no_chunk_table_outlives_an_import_that_succeeded_or_failed() throws IOException {
    catalog.importFile(
        file("ok.csv", PRODUCT_HEADER + "p1" + P + "p1" + P + "p2" + P),
        ImportOptions.defaults().withChunkRows(2));
    catalog.importFile(
        file("bad.csv", PRODUCT_HEADER + "p1" + P + "p3,T,,,1,EUR,nope,https://s.example/1,,\n"),
        ImportOptions.allOrNothing().withChunkRows(1));
    database.jdbi().useHandle(handle -> {
      handle.execute("""
          CREATE OR REPLACE FUNCTION fail_on_boom() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.title = 'boom' THEN RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END $$""");
      handle.execute(
          "CREATE TRIGGER fail_on_boom BEFORE INSERT ON products FOR EACH ROW EXECUTE FUNCTION fail_on_boom()");
    });
    Path failing = file(
        "fail.csv", PRODUCT_HEADER + "p9,boom,,,1,EUR,https://i.example/1,https://s.example/1,,\n");
    assertThatThrownBy(() -> catalog.importFile(failing, ImportOptions.defaults()))
        .isInstanceOf(ImportFailedException.class);
    // Chunk tables are temporary tables of the writing connection: look at every pooled connection.
    List<Handle> handles = new ArrayList<>();
    try {
      for (int i = 0; i < POOL_SIZE; i++) handles.add(database.jdbi().open());
      for (var handle : handles) {
        assertThat(handle
                .createQuery("SELECT count(*) FROM pg_class WHERE relname LIKE 'import_chunk%'"
                    + " AND relnamespace = pg_my_temp_schema()")
                .mapTo(Long.class)
                .one())
            .isZero();
      }
    } finally {
      handles.forEach(Handle::close);
    }
  }

  /** The test databases' pool size (TestDatabases): opening this many handles reaches every connection. */
  private static final int POOL_SIZE = 8;

  @Test
  void a_json_line_longer_than_the_limit_is_a_bad_row_not_a_heap_problem() throws IOException {
    String ok =
        "{\"id\":\"ok\",\"title\":\"T\",\"price\":1,\"currency\":\"EUR\",\"imageUrl\":\"https://i.example/1\",\"landingUrl\":\"https://s.example/1\"}";
    String huge = "{\"id\":\"" + "x".repeat(ImportLimits.MAX_RECORD_CHARS + 10) + "\"}";
    var report =
        catalog.importFile(file("p.jsonl", huge + "\n" + ok + "\n"), ImportOptions.defaults());
    assertThat(report.errors()).extracting(RowError::line).containsExactly(1L);
    assertThat(report.errors().getFirst().reason()).contains("longer than");
    assertThat(report.imported()).isEqualTo(1);
  }
}
