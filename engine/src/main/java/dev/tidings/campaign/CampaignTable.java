package dev.tidings.campaign;

import dev.tidings.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of the {@code campaigns} table (V6__campaigns.sql). Every change of state is one conditional
 * statement ({@code ... WHERE state IN (...)}), so two nodes or two requests racing for one transition
 * cannot both win, and nothing is read before it is written. Statements run on the caller's handle.
 */
final class CampaignTable {
  private static final String COLUMNS =
      "id, state, definition::text AS definition, version, run_id, created_at, updated_at";
  private static final String EDITABLE = "('DRAFT', 'SCHEDULED')";

  private CampaignTable() {}

  static Campaign insert(Handle handle, CampaignDefinition definition, Instant now) {
    return handle
        .createQuery("""
            INSERT INTO campaigns (name, state, definition, scheduled_at, created_at, updated_at)
            VALUES (:name, :state, :definition::jsonb, :scheduledAt, :now, :now)
            RETURNING """ + " " + COLUMNS)
        .bind("name", definition.name())
        .bind("state", definition.definitionState().name())
        .bind("definition", CampaignJson.toJson(definition).toString())
        .bind("scheduledAt", timestamp(definition.scheduledAt()))
        .bind("now", now)
        .map(CampaignTable::campaign)
        .one();
  }

  static Optional<Campaign> find(Handle handle, long id) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM campaigns WHERE id = :id")
        .bind("id", id)
        .map(CampaignTable::campaign)
        .findOne();
  }

  /** Those of {@code ids} that name a stored campaign. */
  static Set<Long> existing(Handle handle, Collection<Long> ids) {
    if (ids.isEmpty()) return Set.of();
    return Set.copyOf(handle
        .createQuery("SELECT id FROM campaigns WHERE id = ANY(:ids)")
        .bindArray("ids", Long.class, List.copyOf(ids))
        .mapTo(Long.class)
        .list());
  }

  /** Newest first: campaigns with an id below {@code before} (keyset pagination). */
  static List<Campaign> page(Handle handle, Optional<Long> before, int limit) {
    return handle
        .createQuery("SELECT " + COLUMNS + " FROM campaigns"
            + " WHERE (:before::bigint IS NULL OR id < :before) ORDER BY id DESC LIMIT :limit")
        .bind("before", before.orElse(null))
        .bind("limit", limit)
        .map(CampaignTable::campaign)
        .list();
  }

  /** Replaces the definition while the campaign is editable; empty when it is not (or does not exist). */
  static Optional<Campaign> replace(
      Handle handle, long id, CampaignDefinition definition, Instant now) {
    return handle
        .createQuery("""
            UPDATE campaigns SET name = :name, state = :state, definition = :definition::jsonb,
                   scheduled_at = :scheduledAt, version = version + 1, updated_at = :now
             WHERE id = :id AND state IN """ + EDITABLE + " RETURNING " + COLUMNS)
        .bind("id", id)
        .bind("name", definition.name())
        .bind("state", definition.definitionState().name())
        .bind("definition", CampaignJson.toJson(definition).toString())
        .bind("scheduledAt", timestamp(definition.scheduledAt()))
        .bind("now", now)
        .map(CampaignTable::campaign)
        .findOne();
  }

  static boolean deleteDraft(Handle handle, long id) {
    return handle
            .createUpdate("DELETE FROM campaigns WHERE id = :id AND state = 'DRAFT'")
            .bind("id", id)
            .execute()
        > 0;
  }

  /** DRAFT or SCHEDULED to RUNNING with a new run id, in one statement; empty when not editable. */
  static Optional<Campaign> claimForSend(Handle handle, long id, Instant now) {
    return handle
        .createQuery("""
            UPDATE campaigns SET state = 'RUNNING', run_id = nextval('campaign_run_id'),
                   started_at = :now, updated_at = :now
             WHERE id = :id AND state IN """ + EDITABLE + " RETURNING " + COLUMNS)
        .bind("id", id)
        .bind("now", now)
        .map(CampaignTable::campaign)
        .findOne();
  }

  /**
   * Claims up to {@code limit} scheduled campaigns that are due, each for exactly one caller however
   * many nodes poll at once: rows another poller has locked are skipped, and the state check in the
   * update makes a claim that lost a race return nothing.
   */
  static List<Campaign> claimDue(Handle handle, Instant now, int limit) {
    return handle
        .createQuery("""
            UPDATE campaigns SET state = 'RUNNING', run_id = nextval('campaign_run_id'),
                   started_at = :now, updated_at = :now
             WHERE id IN (SELECT id FROM campaigns
                           WHERE state = 'SCHEDULED' AND scheduled_at <= :now
                           ORDER BY scheduled_at LIMIT :limit FOR UPDATE SKIP LOCKED)
               AND state = 'SCHEDULED'
            RETURNING """ + " " + COLUMNS)
        .bind("now", now)
        .bind("limit", limit)
        .map(CampaignTable::campaign)
        .list();
  }

  /** Records a state the run reached (pause, resume, cancel) as the stored state, from one of {@code from}. */
  static boolean moveState(
      Handle handle, long id, List<CampaignState> from, CampaignState to, Instant now) {
    return handle
            .createUpdate("UPDATE campaigns SET state = :to, updated_at = :now"
                + " WHERE id = :id AND state IN (<from>)")
            .bind("id", id)
            .bind("to", to.name())
            .bind("now", now)
            .bindList("from", from.stream().map(CampaignState::name).toList())
            .execute()
        > 0;
  }

  /** The run of triggered sends, created by the first trigger. */
  static Optional<Long> triggerRun(Handle handle, long id) {
    return handle.createQuery("""
            UPDATE campaigns SET trigger_run_id = coalesce(trigger_run_id, nextval('campaign_run_id'))
             WHERE id = :id RETURNING trigger_run_id""").bind("id", id).mapTo(Long.class).findOne();
  }

  static Optional<Long> keyedRun(Handle handle, long id, String key) {
    if (handle
        .createQuery("SELECT EXISTS (SELECT 1 FROM campaigns WHERE id = :id)")
        .bind("id", id)
        .mapTo(Boolean.class)
        .one()) {
      // the insert of a key asked for twice at once waits for the first and takes its run
      handle.createUpdate("""
              INSERT INTO campaign_keyed_runs (campaign_id, key, run_id)
              VALUES (:id, :key, nextval('campaign_run_id')) ON CONFLICT DO NOTHING""").bind("id", id).bind("key", key).execute();
      return handle
          .createQuery(
              "SELECT run_id FROM campaign_keyed_runs WHERE campaign_id = :id AND key = :key")
          .bind("id", id)
          .bind("key", key)
          .mapTo(Long.class)
          .findOne();
    }
    return Optional.empty();
  }

  private static Campaign campaign(ResultSet rs, StatementContext ctx) throws SQLException {
    long runId = rs.getLong("run_id");
    Optional<Long> run = rs.wasNull() ? Optional.empty() : Optional.of(runId);
    return new Campaign(
        rs.getLong("id"),
        CampaignJson.fromJson(Json.MAPPER.readTree(rs.getString("definition"))),
        CampaignState.valueOf(rs.getString("state")),
        rs.getInt("version"),
        run,
        rs.getTimestamp("created_at").toInstant(),
        rs.getTimestamp("updated_at").toInstant());
  }

  private static @Nullable Timestamp timestamp(Optional<Instant> at) {
    return at.map(Timestamp::from).orElse(null);
  }
}
