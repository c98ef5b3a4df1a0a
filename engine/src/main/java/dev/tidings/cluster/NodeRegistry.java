package dev.tidings.cluster;

import dev.tidings.jobs.BackgroundJob;
import dev.tidings.jobs.Election;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's row among the installation's nodes, written every {@link #BEAT} while it runs and
 * deleted when it stops; and the list of nodes, for the System page. A node not seen for three beats
 * is shown as not answering; a day later its row goes.
 */
public final class NodeRegistry implements AutoCloseable {
  public static final Duration BEAT = Duration.ofSeconds(10);
  private static final Duration FORGOTTEN = Duration.ofDays(1);
  private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);

  /** A node as the last beat it wrote describes it; {@code answering} when seen within three beats. */
  public record Node(
      UUID id,
      String role,
      String version,
      String host,
      Instant startedAt,
      Instant seenAt,
      boolean answering,
      boolean thisNode) {}

  private final Jdbi jdbi;
  private final InstantSource clock;
  private final UUID id = UUID.randomUUID();
  private final String role;
  private final String version;
  private final String host;
  private final Instant startedAt;

  private NodeRegistry(Jdbi jdbi, InstantSource clock, String role, String version, String host) {
    this.jdbi = jdbi;
    this.clock = clock;
    this.role = role;
    this.version = version;
    this.host = host;
    this.startedAt = clock.instant();
  }

  /** Writes this node's row now; its {@link #beats() beats} write it again while the node runs. */
  public static NodeRegistry join(
      Jdbi jdbi, InstantSource clock, String role, String version, String host) {
    var registry = new NodeRegistry(jdbi, clock, role, version, host);
    registry.beat();
    return registry;
  }

  /** Writes this node's row every {@link #BEAT}; each node its own. */
  public BackgroundJob beats() {
    return BackgroundJob.of("node-registry", BEAT, BEAT, Election.everyNode(), this::beat);
  }

  private void beat() {
    Instant now = clock.instant();
    jdbi.useHandle(handle -> {
      handle
          .createUpdate("""
              INSERT INTO nodes (id, role, version, host, started_at, seen_at)
              VALUES (:id, :role, :version, :host, :started, :now)
              ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at""")
          .bind("id", id)
          .bind("role", role)
          .bind("version", version)
          .bind("host", host)
          .bind("started", Timestamp.from(startedAt))
          .bind("now", Timestamp.from(now))
          .execute();
      handle
          .createUpdate("DELETE FROM nodes WHERE seen_at < :forgotten")
          .bind("forgotten", Timestamp.from(now.minus(FORGOTTEN)))
          .execute();
    });
  }

  /** Every node with a row, this one included, the most recently started first. */
  public List<Node> nodes() {
    Instant answeringSince = clock.instant().minus(BEAT.multipliedBy(3));
    return jdbi.withHandle(handle -> handle
        .createQuery("SELECT * FROM nodes ORDER BY started_at DESC, id")
        .map((rows, context) -> {
          UUID nodeId = rows.getObject("id", UUID.class);
          Instant seen = rows.getTimestamp("seen_at").toInstant();
          return new Node(
              nodeId,
              rows.getString("role"),
              rows.getString("version"),
              rows.getString("host"),
              rows.getTimestamp("started_at").toInstant(),
              seen,
              !seen.isBefore(answeringSince),
              nodeId.equals(id));
        })
        .list());
  }

  /** Deletes this node's row (its beats stopped first): a node that stopped is not in the list. */
  @Override
  public void close() {
    try {
      jdbi.useHandle(handle ->
          handle.createUpdate("DELETE FROM nodes WHERE id = :id").bind("id", id).execute());
    } catch (RuntimeException e) {
      log.debug("this node's row stays until it is a day old: {}", e.toString());
    }
  }
}
