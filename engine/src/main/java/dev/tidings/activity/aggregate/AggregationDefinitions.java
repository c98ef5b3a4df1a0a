package dev.tidings.activity.aggregate;

import dev.tidings.InvalidInputException;
import dev.tidings.Problem;
import dev.tidings.activity.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The enabled aggregations, read from {@code aggregation_definitions} and kept for a few seconds, so a
 * change made on any node reaches every node that soon without a restart. A stored definition that
 * no longer reads is logged and left out; it never stops the intake. Thread-safe.
 */
public final class AggregationDefinitions {
  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(5);
  private static final Logger log = LoggerFactory.getLogger(AggregationDefinitions.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Jdbi jdbi;
  private final long refreshNanos;
  private volatile List<AggregationDefinition> cached = List.of();
  private volatile long readAt = Long.MIN_VALUE;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  public AggregationDefinitions(Jdbi jdbi, Duration refresh) {
    this.jdbi = jdbi;
    this.refreshNanos = refresh.toNanos();
  }

  /** The enabled aggregations, as read at most {@link #DEFAULT_REFRESH} (or the given refresh) ago. */
  public List<AggregationDefinition> enabled() {
    long now = System.nanoTime();
    if (readAt != Long.MIN_VALUE && now - readAt < refreshNanos) return cached;
    return reload();
  }

  /** The enabled aggregations as stored now. */
  public List<AggregationDefinition> reload() {
    long now = System.nanoTime();
    var read = new ArrayList<AggregationDefinition>();
    for (Stored stored : all()) {
      if (!stored.enabled()) continue;
      try {
        read.add(parse(stored.name(), stored.definition()));
      } catch (RuntimeException e) {
        // once per version of the row, not at every re-read
        if (warned.add(stored.name() + "@" + stored.updatedAt()))
          log.warn("aggregation {} is left out: {}", stored.name(), e.getMessage());
      }
    }
    cached = List.copyOf(read);
    readAt = now;
    return cached;
  }

  /** An aggregation as stored: its declaration's JSON, whether it counts, and since when. */
  public record Stored(String name, JsonNode definition, boolean enabled, Instant updatedAt) {}

  /** Every stored aggregation, enabled or not, by name. */
  public List<Stored> all() {
    return jdbi.withHandle(handle -> handle
        .createQuery(
            "SELECT name, definition::text, enabled, updated_at FROM aggregation_definitions"
                + " ORDER BY name")
        .map((rows, context) -> new Stored(
            rows.getString(1),
            JSON.readTree(rows.getString(2)),
            rows.getBoolean(3),
            rows.getTimestamp(4).toInstant()))
        .list());
  }

  /**
   * Stores a declaration under {@code name}, replacing one of that name; it counts the events that
   * arrive from when nodes next read the declarations (within seconds).
   *
   * @return true when it was new
   * @throws InvalidInputException when the declaration is not a valid one
   */
  public boolean put(String name, JsonNode definition, boolean enabled) {
    try {
      parse(name, definition);
    } catch (IllegalArgumentException wrong) {
      // the declaration's own checks speak of the field they refuse
      throw new InvalidInputException(String.valueOf(wrong.getMessage()));
    }
    return jdbi.withHandle(handle -> handle
        .createQuery("""
            INSERT INTO aggregation_definitions (name, definition, enabled) VALUES (:name, :definition::jsonb, :enabled)
            ON CONFLICT (name) DO UPDATE
               SET definition = excluded.definition, enabled = excluded.enabled, updated_at = now()
            RETURNING xmax = 0""")
        .bind("name", name)
        .bind("definition", definition.toString())
        .bind("enabled", enabled)
        .mapTo(Boolean.class)
        .one());
  }

  /**
   * Reads a definition's JSON: {@code events}, {@code groupBy}, {@code scopes} (lists of names, in
   * any case), {@code measure} and {@code algorithm}.
   */
  public static AggregationDefinition parse(String name, JsonNode definition) {
    return new AggregationDefinition(
        name,
        names(definition, "events", EventType.class),
        List.copyOf(names(definition, "groupBy", Dimension.class)),
        names(definition, "scopes", Scope.class),
        one(definition, "measure", Measure.class),
        definition.path("algorithm").asString(""));
  }

  private static <E extends Enum<E>> Set<E> names(
      JsonNode definition, String field, Class<E> type) {
    JsonNode list = definition.path(field);
    if (!list.isArray())
      throw new InvalidInputException(
          Problem.format(field, field + " must be a list of names of " + choices(type)));
    var values = EnumSet.noneOf(type);
    for (JsonNode item : list) values.add(value(item.asString(""), field, type));
    return values;
  }

  private static <E extends Enum<E>> E one(JsonNode definition, String field, Class<E> type) {
    return value(definition.path(field).asString(""), field, type);
  }

  private static <E extends Enum<E>> E value(String text, String field, Class<E> type) {
    try {
      return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(
          Problem.unknown(field, field + ": '" + text + "' is not one of " + choices(type)));
    }
  }

  private static <E extends Enum<E>> String choices(Class<E> type) {
    var names = new ArrayList<String>();
    for (E value : type.getEnumConstants()) names.add(value.name().toLowerCase(Locale.ROOT));
    return String.join(", ", names);
  }
}
