package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.Json;
import dev.tidings.app.AudienceWiring;
import dev.tidings.app.CatalogWiring;
import dev.tidings.app.DeliveryWiring;
import dev.tidings.app.Node;
import dev.tidings.app.NotifyWiring;
import dev.tidings.app.OpenTimeWiring;
import dev.tidings.app.Role;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.TargetType;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.AudienceQuery;
import dev.tidings.campaign.Condition;
import dev.tidings.catalog.ProductJson;
import dev.tidings.config.SettingsLoader;
import dev.tidings.delivery.DeliveryStats;
import dev.tidings.delivery.DeliveryStatus;
import dev.tidings.delivery.Receipt;
import dev.tidings.delivery.ReceiptSource;
import dev.tidings.delivery.SendTimeOutcomes;
import dev.tidings.imports.Format;
import dev.tidings.imports.ImportOptions;
import dev.tidings.message.MessageId;
import dev.tidings.message.MessageToken;
import dev.tidings.notify.Content;
import dev.tidings.notify.ContentType;
import dev.tidings.notify.CrossingCount;
import dev.tidings.notify.ProductNewsListener;
import dev.tidings.testing.OutboxDeliveries;
import dev.tidings.testing.RealServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The table ownership of {@link TableOwnershipTest} over the SQL a node actually executes: a node
 * starts and serves an open and a delivery receipt, notify tells a place's news to followers and
 * neighbours, a segment with every kind of condition is counted, the delivery figures that join other
 * capabilities' rows are read, while {@link OwnershipCheck} reads each statement as it goes to
 * PostgreSQL. A capability may name its own tables, and others' only inside what their owner published.
 */
class ExecutedSqlOwnershipIT {
  /** "capability -> table" still crossing in executed SQL, with why; this list only shrinks. */
  private static final Map<String, String> KNOWN_CROSSINGS = Map.of();

  private final OwnershipCheck check = new OwnershipCheck(TableOwnershipTest.OWNERS);
  private String database;
  private Node node;
  private Jdbi jdbi;

  @BeforeEach
  void start() throws Exception {
    database = "tidings_owners_" + UUID.randomUUID().toString().substring(0, 8);
    String url = RealServers.createDatabase(database);
    Path dataDir = Files.createTempDirectory("tidings-owners");
    node = Node.of(SettingsLoader.load(Map.of(
        "TIDINGS_DB_URL",
        url,
        "TIDINGS_DATA_DIR",
        dataDir.toString(),
        "TIDINGS_SECRET",
        "owners-secret-0123456789abcdef",
        "TIDINGS_API_KEY",
        "owners-api-key-0123456789")));
    jdbi = node.infrastructure().database().jdbi();
    jdbi.getConfig(SqlStatements.class).setSqlLogger(check);
    node.start(Role.DEMO, 0);
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) node.close();
    RealServers.dropDatabase(database);
  }

  @Test
  void what_the_capabilities_execute_names_only_their_own_tables_and_what_owners_published()
      throws Exception {
    var catalog = node.capability(CatalogWiring.class).catalog();
    for (int i = 0; i < 3; i++)
      catalog.put(ProductJson.fromJson(Json.MAPPER.readTree("""
          {"id":"p%d","title":"Product %d","price":"9.00","currency":"EUR",
           "imageUrl":"http://127.0.0.1:9/p.png","landingUrl":"https://shop.example/p"}""".formatted(i, i))));
    // the test's own rows: no capability on the stack, so counted but not checked
    jdbi.useHandle(handle -> {
      handle.execute(
          "INSERT INTO subscribers (id, email, latitude, longitude, created_at, updated_at)"
              + " VALUES ('ann', 'ann@example.test', 52.37, 4.89, now(), now())");
      handle.execute("INSERT INTO follows (subscriber_id, target_type, target_id, followed_at)"
          + " VALUES ('ann', 'artist', 'warhol', now())");
    });

    // the bulk importer runs its statements for the capability that plugs a format into it
    String lines = """
        {"id":"b1","title":"Boot","price":"59.00","currency":"EUR","brand":"acme","available":true,
         "imageUrl":"http://127.0.0.1:9/b.png","landingUrl":"https://shop.example/b"}
        """.replace("\n ", " ");
    assertThat(catalog
            .importStream(
                new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)),
                Format.JSON_LINES,
                ImportOptions.defaults())
            .imported())
        .isEqualTo(1);
    assertThat(node.capability(AudienceWiring.class)
            .subscribers()
            .importStream(
                new ByteArrayInputStream(
                    "id,email,latitude,longitude\nbob,bob@example.test,52.09,5.12\n"
                        .getBytes(StandardCharsets.UTF_8)),
                Format.CSV,
                ImportOptions.defaults())
            .imported())
        .isEqualTo(1);
    jdbi.useHandle(handle ->
        handle.execute("INSERT INTO follows (subscriber_id, target_type, target_id, followed_at)"
            + " VALUES ('bob', 'brand', 'acme', now())"));

    var notifications = node.capability(NotifyWiring.class).notifications();
    OutboxDeliveries.deliver(jdbi, new ProductNewsListener(notifications));
    var show = new Content(
        "show",
        ContentType.SHOW,
        "Opening",
        Optional.of("https://gallery.test/show"),
        Optional.empty(),
        List.of(new FollowTarget(TargetType.ARTIST, "warhol")),
        Optional.of(new GeoPoint(52.37, 4.90)),
        40,
        Optional.empty(),
        Optional.empty(),
        false);
    notifications.put(show);
    var published = notifications.publish("show").orElseThrow();
    assertThat(published.followers()).isEqualTo(1);
    assertThat(published.nearby()).isEqualTo(2);

    var segment = new Audience.Segment(List.of(
        new Condition.FieldIn(Condition.Field.COUNTRY, List.of("nl")),
        new Condition.LocaleIn(List.of("nl")),
        new Condition.Near(52.37, 4.9, 10),
        new Condition.Follows(TargetType.ARTIST, "warhol"),
        new Condition.OpenedCampaign(1, false),
        new Condition.InExperiment(1, false),
        new Condition.ClickedWithin(7),
        new Condition.OpenedWithin(7)));
    assertThat(new AudienceQuery(jdbi, Instant::now).count(segment)).isZero();
    assertThat(new DeliveryStats(jdbi).topClickedProducts(1, 5)).isEmpty();
    assertThat(new SendTimeOutcomes(jdbi).of(1)).isEmpty();

    var tokens = node.capability(OpenTimeWiring.class).tokens();
    String token = tokens.encode(new MessageToken(new MessageId(1, 1, "ann"), Instant.now(), 3));
    var open = HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + node.port() + "/o/" + token + "/0"))
                .build(),
            HttpResponse.BodyHandlers.discarding());
    assertThat(open.statusCode()).isEqualTo(200);
    node.capability(OpenTimeWiring.class).chooser().flush();
    node.capability(DeliveryWiring.class)
        .store()
        .apply(
            List.of(Receipt.of(
                new MessageId(1, 1, "ann").text(),
                DeliveryStatus.SENT,
                Instant.now(),
                ReceiptSource.SMTP)),
            List.of());
    Thread.sleep(2_000); // what the open queued, handled on the consumers' threads

    var crossings = check.crossings();
    crossings
        .values()
        .forEach(c -> System.out.println("crossing " + c.key() + " (owner " + c.owner() + "): "
            + c.sql().replaceAll("\\s+", " ")));
    System.out.println("statements checked: " + check.checked() + "; composing published SQL: "
        + check.composed() + "; the test's own: " + check.unattributed());
    assertThat(check.checked())
        .as("statements each capability ran")
        .containsKeys("catalog", "audience", "notify", "campaign", "delivery", "opentime");
    assertThat(check.composed())
        .as("statements that compose another capability's published SQL")
        .containsKeys("notify", "campaign", "delivery");
    assertThat(crossings.keySet())
        .as("tables named outside what their owner published")
        .isSubsetOf(KNOWN_CROSSINGS.keySet());
    assertThat(KNOWN_CROSSINGS.keySet())
        .as("crossings that are gone: take them off the known list")
        .isSubsetOf(crossings.keySet());
  }

  @Test
  void a_table_name_put_together_from_pieces_is_caught_when_the_statement_runs() {
    assertThat(check.crossings()).doesNotContainKey("notify -> subscribers");

    CrossingCount.subscribers(jdbi);

    assertThat(check.crossings()).containsKey("notify -> subscribers");
    assertThat(check.crossings().get("notify -> subscribers").sql())
        .isEqualTo("SELECT count(*) FROM subscribers");
  }
}
