package dev.tidings.storage;

import com.zaxxer.hikari.SQLExceptionOverride;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;

/**
 * Tells the pool which failed connections to drop and counts them. A connection that says it is
 * read-only (SQLSTATE 25006) sits on a standby, e.g. a primary demoted behind our back: the pool
 * keeps such a connection by default, so every write on it would fail; it is dropped and the next
 * one is opened on whichever server is primary now. Connections of a server that went away
 * (class 08, 57P01-57P03) are dropped as the pool does anyway, and counted.
 */
final class PoolEvictions implements SQLExceptionOverride {
  private final Counter readOnly;
  private final Counter serverGone;

  PoolEvictions(MeterRegistry metrics, ConnectionSpec.Role role) {
    this.readOnly = counter(metrics, role, "read_only");
    this.serverGone = counter(metrics, role, "server_gone");
  }

  private static Counter counter(MeterRegistry metrics, ConnectionSpec.Role role, String reason) {
    return Counter.builder("tidings_db_connections_evicted_total")
        .description("Pooled PostgreSQL connections dropped after a failure, by pool and reason")
        .tag("pool", role == ConnectionSpec.Role.PRIMARY ? "primary" : "read")
        .tag("reason", reason)
        .register(metrics);
  }

  @java.lang.Override
  public Override adjudicate(SQLException failure) {
    String state = failure.getSQLState();
    if (state == null) return Override.CONTINUE_EVICT;
    if (state.equals("25006")) {
      readOnly.increment();
      return Override.MUST_EVICT;
    }
    if (state.startsWith("08")
        || state.equals("57P01")
        || state.equals("57P02")
        || state.equals("57P03")) {
      serverGone.increment();
      return Override.MUST_EVICT;
    }
    return Override.CONTINUE_EVICT;
  }
}
