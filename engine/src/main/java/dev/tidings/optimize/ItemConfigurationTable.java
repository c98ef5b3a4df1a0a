package dev.tidings.optimize;

import dev.tidings.Json;
import dev.tidings.storage.AdvisoryLock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.core.type.TypeReference;

/** The SQL of {@code item_configurations} and {@code item_current_configurations} (V17__item_configurations.sql). */
final class ItemConfigurationTable {
  private static final TypeReference<LinkedHashMap<String, String>> ATTRIBUTES =
      new TypeReference<>() {};

  /** Rows per round trip of the optimisation's scan: big enough that the network is not the limit. */
  private static final int SCAN_FETCH_SIZE = 20_000;

  private static final String COLUMNS = """
      c.item_id, c.configuration_id, c.attributes::text AS attributes,
      c.configuration_id = cur.configuration_id AS current, c.impressions, c.conversions""";

  private ItemConfigurationTable() {}

  /** Key space of the per-item locks (the first half of a two-key advisory lock). */
  private static final AdvisoryLock ITEM_LOCK_SPACE = AdvisoryLock.ITEM_CONFIGURATIONS;

  /**
   * Serialises the writers of one item's configurations until the transaction ends. A put writes the
   * configuration, then the current pointer; a delete reads the pointer, then removes the configuration.
   * Interleaved, two puts deadlocked on the pointer row and a delete removed a configuration that a put
   * had just made current (a foreign key failure), both answered as 500s.
   */
  static void lockItem(Handle handle, String itemId) {
    handle
        .createQuery("SELECT 1 FROM pg_advisory_xact_lock(:space, hashtext(:item))")
        .bind("space", ITEM_LOCK_SPACE.number())
        .bind("item", itemId)
        .mapTo(Integer.class)
        .one();
  }

  /** Inserts or replaces a configuration's attributes (its counts stay); true when it was new. */
  static boolean put(
      Handle handle,
      String itemId,
      String configurationId,
      Map<String, String> attributes,
      Instant now) {
    return handle
        .createQuery("""
            INSERT INTO item_configurations (item_id, configuration_id, attributes, created_at, updated_at)
            VALUES (:item, :configuration, :attributes::jsonb, :now, :now)
            ON CONFLICT (item_id, configuration_id) DO UPDATE SET
              attributes = excluded.attributes, updated_at = excluded.updated_at
            RETURNING xmax = 0""")
        .bind("item", itemId)
        .bind("configuration", configurationId)
        .bind("attributes", Json.MAPPER.writeValueAsString(attributes))
        .bind("now", Timestamp.from(now))
        .mapTo(Boolean.class)
        .one();
  }

  /** Makes a configuration current; when {@code onlyIfNone}, only if the item has no current one yet. */
  static void makeCurrent(
      Handle handle, String itemId, String configurationId, boolean onlyIfNone, Instant now) {
    String onConflict = onlyIfNone
        ? "DO NOTHING"
        : "DO UPDATE SET configuration_id = excluded.configuration_id, changed_at = excluded.changed_at"
            + " WHERE item_current_configurations.configuration_id <> excluded.configuration_id";
    handle
        .createUpdate("""
            INSERT INTO item_current_configurations (item_id, configuration_id, changed_at)
            VALUES (:item, :configuration, :now)
            ON CONFLICT (item_id)
            """ + onConflict)
        .bind("item", itemId)
        .bind("configuration", configurationId)
        .bind("now", Timestamp.from(now))
        .execute();
  }

  static List<ItemConfiguration> item(Handle handle, String itemId) {
    return handle
        .createQuery("SELECT " + COLUMNS + """
             FROM item_configurations c
             LEFT JOIN item_current_configurations cur ON cur.item_id = c.item_id
            WHERE c.item_id = :item
            ORDER BY c.configuration_id""")
        .bind("item", itemId)
        .map((rows, context) -> read(rows))
        .list();
  }

  static Optional<String> currentOf(Handle handle, String itemId) {
    return handle
        .createQuery(
            "SELECT configuration_id FROM item_current_configurations WHERE item_id = :item FOR UPDATE")
        .bind("item", itemId)
        .mapTo(String.class)
        .findOne();
  }

  static int countOf(Handle handle, String itemId) {
    return handle
        .createQuery("SELECT count(*) FROM item_configurations WHERE item_id = :item")
        .bind("item", itemId)
        .mapTo(Integer.class)
        .one();
  }

  static boolean delete(Handle handle, String itemId, String configurationId) {
    return handle
            .createUpdate(
                "DELETE FROM item_configurations WHERE item_id = :item AND configuration_id = :configuration")
            .bind("item", itemId)
            .bind("configuration", configurationId)
            .execute()
        > 0;
  }

  static void forgetCurrent(Handle handle, String itemId) {
    handle
        .createUpdate("DELETE FROM item_current_configurations WHERE item_id = :item")
        .bind("item", itemId)
        .execute();
  }

  /**
   * Locks the named configurations in key order (so concurrent batches wait for each other instead of
   * deadlocking) and returns those that exist, as {@code item + '\t' + configuration}.
   */
  static List<String> lockExisting(Handle handle, List<String> items, List<String> configurations) {
    return handle
        .createQuery("""
            SELECT c.item_id || chr(9) || c.configuration_id
              FROM item_configurations c
              JOIN unnest(:items, :configurations) AS k (item_id, configuration_id)
                ON c.item_id = k.item_id AND c.configuration_id = k.configuration_id
             ORDER BY c.item_id, c.configuration_id
               FOR UPDATE OF c""")
        .bindArray("items", String.class, items)
        .bindArray("configurations", String.class, configurations)
        .mapTo(String.class)
        .list();
  }

  static int addCounts(
      Handle handle,
      List<String> items,
      List<String> configurations,
      long[] impressions,
      long[] conversions) {
    return handle
        .createUpdate("""
            UPDATE item_configurations c
               SET impressions = c.impressions + d.impressions, conversions = c.conversions + d.conversions
              FROM unnest(:items, :configurations, :impressions, :conversions)
                   AS d (item_id, configuration_id, impressions, conversions)
             WHERE c.item_id = d.item_id AND c.configuration_id = d.configuration_id""")
        .bindArray("items", String.class, items)
        .bindArray("configurations", String.class, configurations)
        .bind("impressions", impressions)
        .bind("conversions", conversions)
        .execute();
  }

  /** Sets the current configuration of many items at once: {@code winners[i]} for {@code items[i]}. */
  static int makeCurrent(
      Handle handle, Collection<String> items, Collection<String> winners, Instant now) {
    return handle
        .createUpdate("""
            UPDATE item_current_configurations cur
               SET configuration_id = w.configuration_id, changed_at = :now
              FROM unnest(:items, :winners) AS w (item_id, configuration_id)
             WHERE cur.item_id = w.item_id""")
        .bindArray("items", String.class, items)
        .bindArray("winners", String.class, winners)
        .bind("now", Timestamp.from(now))
        .execute();
  }

  /** What the scan hands over: one item's arms, in configuration order; false stops the scan. */
  @FunctionalInterface
  interface ItemVisitor {
    boolean visit(String itemId, List<Arm> arms);
  }

  /**
   * Reads every item after {@code after} (in item order, "C" collation) with its arms, streaming through a
   * cursor: one sequential pass over both tables' primary keys, no per-item round trip. Must run in a
   * transaction (PostgreSQL's JDBC driver streams only there).
   */
  static void scan(
      Handle handle, String after, Optional<Collection<String>> only, ItemVisitor visitor)
      throws SQLException {
    Connection connection = handle.getConnection();
    String sql = """
        SELECT c.item_id, c.configuration_id, c.configuration_id = cur.configuration_id, c.impressions, c.conversions
          FROM item_configurations c
          JOIN item_current_configurations cur ON cur.item_id = c.item_id
         WHERE c.item_id > ?""" + (only.isEmpty() ? "" : " AND c.item_id = ANY(?)") + """

         ORDER BY c.item_id, c.configuration_id""";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setFetchSize(SCAN_FETCH_SIZE);
      statement.setString(1, after);
      if (only.isPresent())
        statement.setArray(2, connection.createArrayOf("text", only.get().toArray()));
      try (ResultSet rows = statement.executeQuery()) {
        String item = null;
        var arms = new ArrayList<Arm>(4);
        while (rows.next()) {
          String rowItem = rows.getString(1);
          if (!rowItem.equals(item)) {
            if (item != null && !visitor.visit(item, List.copyOf(arms))) return;
            item = rowItem;
            arms.clear();
          }
          arms.add(new Arm(
              rows.getString(2),
              rows.getBoolean(3),
              Arm.counted(rows.getLong(4), rows.getLong(5))));
        }
        if (item != null) visitor.visit(item, List.copyOf(arms));
      }
    }
  }

  private static ItemConfiguration read(ResultSet rows) throws SQLException {
    return new ItemConfiguration(
        rows.getString("item_id"),
        rows.getString("configuration_id"),
        Json.MAPPER.readValue(rows.getString("attributes"), ATTRIBUTES),
        rows.getBoolean("current"),
        rows.getLong("impressions"),
        rows.getLong("conversions"));
  }
}
