package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every table has one owning capability, and only the owner's SQL names it: in Java (the SQL in its
 * string literals and text blocks) and in the migrations (a statement, or a trigger with the function
 * it runs, names tables of one owner). Another capability reads what the owner publishes: a service, a
 * reader interface, or a SQL fragment the owner's package defines and tests. What still crosses is
 * listed in {@link #KNOWN_CROSSINGS}, each with its reason, and that list only shrinks.
 */
class TableOwnershipTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/tidings");
  private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");

  /** Table -> owning capability (the package under dev.tidings; its sub-packages belong to it). */
  static final Map<String, String> OWNERS = owners(Map.ofEntries(
      Map.entry(
          "catalog",
          List.of(
              "products", "product_additions", "product_feed_state", "markets", "product_prices")),
      Map.entry("sendtime", List.of("send_time_open_hours")),
      Map.entry("audience", List.of("subscribers", "follows", "suppressions")),
      Map.entry(
          "activity",
          List.of(
              "activity_events",
              "aggregation_backlog",
              "aggregates",
              "aggregate_days",
              "aggregate_people",
              "aggregation_definitions")),
      Map.entry(
          "campaign",
          List.of(
              "campaigns", "campaign_keyed_runs", "send_run", "send_partition", "send_recipient")),
      Map.entry(
          "delivery",
          List.of(
              "message_status",
              "message_steps",
              "campaign_funnel",
              "campaign_funnel_minutes",
              "slot_clicks",
              "parked_receipts",
              "unknown_receipts",
              "webhook_replays")),
      Map.entry("opentime", List.of("message_slots", "campaign_template_products")),
      Map.entry("notify", List.of("content", "notification_buckets", "digests_sent")),
      Map.entry(
          "optimize",
          List.of(
              "experiment_sends",
              "experiment_counts",
              "experiment_decisions",
              "item_configurations",
              "item_current_configurations")),
      Map.entry("recommend", List.of("recommender_settings", "recommender_blend")),
      Map.entry("coordination", List.of("countdown", "countdown_part")),
      Map.entry(
          "queue",
          List.of(
              "work_queue", "work_queue_message", "work_queue_delayed", "work_queue_dead_letter")),
      Map.entry(
          "events", List.of("event_outbox", "event_log", "event_inbox", "event_stream_cursor")),
      Map.entry("webhooks", List.of("webhook_endpoints", "webhook_dead_letters")),
      Map.entry(
          "journeys",
          List.of(
              "journeys",
              "journey_versions",
              "journey_instances",
              "journey_facts",
              "journey_sends",
              "journey_step_runs",
              "journey_signals",
              "reader_limits")),
      Map.entry("web", List.of("dashboard_sign_outs")),
      Map.entry("cluster", List.of("nodes"))));

  /**
   * The tools (benchmarks, the sample shop, the demo's readers) set up and read data as a test would;
   * they never ship in the engine, so they are not capabilities here.
   */
  private static final Set<String> TOOLS = Set.of("bench", "sample", "demo");

  /** "capability -> table" (or "migration file -> tables") still crossing an owner, with why. */
  private static final Map<String, String> KNOWN_CROSSINGS = Map.of();

  private static final Pattern STRING =
      Pattern.compile("\"\"\"(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"", Pattern.DOTALL);
  private static final Pattern TABLE_REFERENCE = Pattern.compile(
      "(?i)\\b(?:from|join|into|update|table|references|truncate|exists|on)\\s+(?:only\\s+)?"
          + "([a-z_][a-z0-9_]*)");
  private static final Pattern DOLLAR_QUOTED = Pattern.compile("\\$\\$(.*?)\\$\\$", Pattern.DOTALL);
  private static final Pattern FUNCTION =
      Pattern.compile("(?i)create\\s+(?:or\\s+replace\\s+)?function\\s+([a-z_][a-z0-9_]*)");
  private static final Pattern CREATE_TRIGGER =
      Pattern.compile("(?i)create\\s+(?:or\\s+replace\\s+)?trigger\\s+([a-z_][a-z0-9_]*)");
  private static final Pattern DROP_TRIGGER =
      Pattern.compile("(?i)drop\\s+trigger\\s+(?:if\\s+exists\\s+)?([a-z_][a-z0-9_]*)");
  private static final Pattern EXECUTES =
      Pattern.compile("(?i)execute\\s+(?:function|procedure)\\s+([a-z_][a-z0-9_]*)");

  @Test
  void every_table_named_in_a_migration_has_one_owner() throws IOException {
    Set<String> created = new TreeSet<>();
    Pattern create = Pattern.compile(
        "(?i)create\\s+(?:unlogged\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?([a-z_][a-z0-9_]*)");
    Pattern rename = Pattern.compile(
        "(?i)alter\\s+table\\s+([a-z_][a-z0-9_]*)\\s+rename\\s+to\\s+([a-z_][a-z0-9_]*)");
    for (Path migration : migrations()) {
      String sql = Files.readString(migration);
      Matcher matcher = create.matcher(sql);
      while (matcher.find()) created.add(matcher.group(1).toLowerCase(Locale.ROOT));
      Matcher renamed = rename.matcher(sql);
      while (renamed.find()) {
        created.remove(renamed.group(1).toLowerCase(Locale.ROOT));
        created.add(renamed.group(2).toLowerCase(Locale.ROOT));
      }
    }
    assertThat(created).isNotEmpty();
    assertThat(OWNERS.keySet()).containsExactlyInAnyOrderElementsOf(created);
  }

  @Test
  void a_capability_names_in_sql_only_the_tables_it_owns() throws IOException {
    Set<String> crossings = new TreeSet<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String capability = capabilityOf(file);
        if (TOOLS.contains(capability)) continue;
        for (String table : tablesNamedInStrings(Files.readString(file))) {
          String owner = OWNERS.get(table);
          if (!capability.equals(owner)) crossings.add(capability + " -> " + table);
        }
      }
    }
    Set<String> dropped = droppedTriggers();
    for (Path migration : migrations()) {
      for (Set<String> owners : ownersPerStatement(Files.readString(migration), dropped)) {
        if (owners.size() > 1)
          crossings.add(migration.getFileName() + " -> " + String.join("+", new TreeSet<>(owners)));
      }
    }
    assertThat(crossings)
        .as("SQL naming another capability's table; read it through what its owner publishes")
        .isSubsetOf(KNOWN_CROSSINGS.keySet());
    assertThat(KNOWN_CROSSINGS.keySet())
        .as("crossings that are gone: take them off the known list")
        .isSubsetOf(crossings);
  }

  /**
   * The check over executed SQL counts a marked fragment as its owner's: so only the owner's own
   * class marks one, never a class of another package.
   */
  @Test
  void a_published_fragment_is_marked_by_a_class_of_its_own_file() throws IOException {
    Pattern marks = Pattern.compile("PublishedSql\\.by\\(\\s*([A-Za-z0-9_.]+)\\.class");
    Set<String> foreign = new TreeSet<>();
    int marked = 0;
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String own = file.getFileName().toString().replace(".java", "");
        Matcher matcher = marks.matcher(Files.readString(file));
        while (matcher.find()) {
          marked++;
          if (!matcher.group(1).equals(own)) foreign.add(file + ": " + matcher.group(1));
        }
      }
    }
    assertThat(marked).as("fragments marked in the sources").isGreaterThan(5);
    assertThat(foreign).as("fragments marked as another class's").isEmpty();
  }

  @Test
  void the_scan_sees_a_table_in_a_text_block_and_in_a_trigger_with_its_function() {
    String java =
        "var sql = \"\"\"\n  SELECT s.id FROM subscribers s JOIN follows f ON f.x = s.id\n\"\"\";";
    assertThat(tablesNamedInStrings(java)).containsExactlyInAnyOrder("subscribers", "follows");
    String migration = """
        CREATE FUNCTION products_to_news() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO content (id) SELECT id FROM added;
          RETURN NULL;
        END $$;
        CREATE TRIGGER products_to_news AFTER INSERT ON products
          REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION products_to_news();
        """;
    assertThat(ownersPerStatement(migration, Set.of())).contains(Set.of("catalog", "notify"));
    assertThat(ownersPerStatement(migration, Set.of("products_to_news")))
        .doesNotContain(Set.of("catalog", "notify"));
  }

  private static String capabilityOf(Path file) {
    Path relative = SOURCES.relativize(file);
    return relative.getNameCount() == 1 ? "" : relative.getName(0).toString();
  }

  private static Set<String> tablesNamedInStrings(String java) {
    Set<String> tables = new LinkedHashSet<>();
    Matcher strings = STRING.matcher(java);
    while (strings.find()) {
      String text = strings.group(1) != null ? strings.group(1) : strings.group(2);
      tables.addAll(tablesIn(text));
    }
    return tables;
  }

  private static Set<String> tablesIn(String sql) {
    Set<String> tables = new LinkedHashSet<>();
    Matcher references = TABLE_REFERENCE.matcher(sql);
    while (references.find()) {
      String name = references.group(1).toLowerCase(Locale.ROOT);
      if (OWNERS.containsKey(name)) tables.add(name);
    }
    return tables;
  }

  /**
   * The owners each statement of a migration names; a trigger counts with the tables its function
   * names, since the two together are what writes across.
   */
  private static List<Set<String>> ownersPerStatement(String migration, Set<String> dropped) {
    Map<String, Set<String>> functionTables = new HashMap<>();
    Matcher functions = FUNCTION.matcher(migration);
    while (functions.find()) {
      Matcher body = DOLLAR_QUOTED.matcher(migration);
      if (body.find(functions.end()))
        functionTables.put(functions.group(1).toLowerCase(Locale.ROOT), tablesIn(body.group(1)));
    }
    String withoutBodies = DOLLAR_QUOTED.matcher(migration).replaceAll("\\$\\$\\$\\$");
    String withoutComments = withoutBodies.replaceAll("--[^\\n]*", "");
    return Stream.of(withoutComments.split(";"))
        .filter(statement -> !FUNCTION.matcher(statement).find())
        .filter(statement -> {
          Matcher trigger = CREATE_TRIGGER.matcher(statement);
          return !trigger.find() || !dropped.contains(trigger.group(1).toLowerCase(Locale.ROOT));
        })
        .map(statement -> {
          Set<String> tables = new LinkedHashSet<>(tablesIn(statement));
          Matcher executes = EXECUTES.matcher(statement);
          if (executes.find())
            tables.addAll(
                functionTables.getOrDefault(executes.group(1).toLowerCase(Locale.ROOT), Set.of()));
          Set<String> owners = new TreeSet<>();
          tables.forEach(table -> owners.add(OWNERS.get(table)));
          return owners;
        })
        .toList();
  }

  /** Triggers a later migration drops: what they wrote across is history, not today's schema. */
  private static Set<String> droppedTriggers() throws IOException {
    Set<String> dropped = new TreeSet<>();
    for (Path migration : migrations()) {
      Matcher drops = DROP_TRIGGER.matcher(Files.readString(migration));
      while (drops.find()) dropped.add(drops.group(1).toLowerCase(Locale.ROOT));
    }
    return dropped;
  }

  private static List<Path> migrations() throws IOException {
    try (Stream<Path> files = Files.list(MIGRATIONS)) {
      return files.filter(f -> f.toString().endsWith(".sql")).sorted().toList();
    }
  }

  private static Map<String, String> owners(Map<String, List<String>> tablesByOwner) {
    Map<String, String> owners = new HashMap<>();
    tablesByOwner.forEach((owner, tables) -> tables.forEach(table -> {
      String previous = owners.put(table, owner);
      if (previous != null)
        throw new IllegalStateException(table + " has two owners: " + previous + ", " + owner);
    }));
    return Map.copyOf(owners);
  }
}
