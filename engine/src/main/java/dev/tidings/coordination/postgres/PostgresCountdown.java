package dev.tidings.coordination.postgres;

import dev.tidings.coordination.CoordinationException;
import dev.tidings.coordination.Countdown;
import dev.tidings.storage.Database;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.jdbi.v3.core.JdbiException;

/**
 * {@link Countdown} in PostgreSQL: a countdown survives restarts of the nodes, of Redis and of the
 * embedded database, and its fences come from a sequence, so they never go back. A campaign does one
 * operation per partition of about a thousand recipients, so a round trip to the database per
 * operation costs nothing that matters, and durability is worth much more.
 *
 * <p>Every claim, renew and finish is one statement; a statement that fails (the connection died, the
 * server restarted) is not re-sent by the driver, and each is safe for its caller to retry: a claim
 * by the same holder, a finish with the same lease and a start by the same starter answer as the
 * first did.
 *
 * <p>Does not own the {@link Database}.
 */
public final class PostgresCountdown implements Countdown {
  private final CountdownTable table;

  public PostgresCountdown(Database database) {
    this.table = new CountdownTable(Objects.requireNonNull(database, "database").jdbi());
  }

  @Override
  public boolean start(String name, int parts, String starter, Duration retention) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(starter, "starter");
    if (parts < 1) throw new IllegalArgumentException("parts must be at least 1 but was " + parts);
    requirePositive(retention, "retention");
    return call("start countdown " + name, () -> {
      // starts are rare (one per campaign run), so they are where forgotten countdowns are swept
      table.purgeForgotten();
      return table.insert(name, parts, starter, retention)
          || table.starter(name).map(starter::equals).orElse(false);
    });
  }

  @Override
  public Optional<Lease> claim(String name, int part, String holder, Duration leaseTtl) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(holder, "holder");
    requirePositive(leaseTtl, "leaseTtl");
    var outcome = call(
        "claim part " + part + " of countdown " + name,
        () -> table.claim(name, part, holder, leaseTtl));
    checkPart(outcome, part);
    Long fence = outcome.value();
    return fence == null ? Optional.empty() : Optional.of(new Lease(name, part, fence));
  }

  @Override
  public boolean renew(Lease lease, Duration leaseTtl) {
    Objects.requireNonNull(lease, "lease");
    requirePositive(leaseTtl, "leaseTtl");
    var outcome = call(
        "renew part " + lease.part() + " of countdown " + lease.name(),
        () -> table.renew(lease.name(), lease.part(), lease.fence(), leaseTtl));
    checkPart(outcome, lease.part());
    return Objects.requireNonNullElse(outcome.value(), 0L) > 0;
  }

  @Override
  public Finish finish(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    String name = lease.name();
    int part = lease.part();
    var outcome = call(
        "finish part " + part + " of countdown " + name,
        () -> table.finish(name, part, lease.fence()));
    checkPart(outcome, part);
    Long remaining = outcome.value();
    if (remaining != null) return new Finish.Done(remaining);
    // Nothing counted: read what is committed now (a concurrent finish of the same lease may have
    // committed while this one waited for the part's row) and explain it.
    var state = call("read part " + part + " of countdown " + name, () -> table.part(name, part));
    if (state.isEmpty()) return new Finish.Refused("countdown " + name + " does not exist");
    Long doneRemaining = state.get().doneRemaining();
    if (doneRemaining != null) {
      return state.get().fence() == lease.fence()
          ? new Finish.Done(doneRemaining)
          : new Finish.Refused("part " + part + " is already done");
    }
    return new Finish.Refused("lease on part " + part + " was taken over (fence " + lease.fence()
        + ", current " + state.get().fence() + ")");
  }

  @Override
  public List<Integer> stuck(String name) {
    Objects.requireNonNull(name, "name");
    return call("list stuck parts of countdown " + name, () -> table.stuck(name));
  }

  @Override
  public OptionalLong remaining(String name) {
    Objects.requireNonNull(name, "name");
    return call("read countdown " + name, () -> table.remaining(name));
  }

  private static void checkPart(CountdownTable.Outcome outcome, int part) {
    Integer parts = outcome.parts();
    if (parts != null && (part < 0 || part >= parts)) {
      throw new IllegalArgumentException(
          "part must be within 0.." + (parts - 1) + " but was " + part);
    }
  }

  private static <T> T call(String what, Supplier<T> statement) {
    try {
      return statement.get();
    } catch (JdbiException e) {
      throw new CoordinationException("PostgreSQL failed to " + what + ": " + e.getMessage(), e);
    }
  }

  private static void requirePositive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.toMillis() < 1)
      throw new IllegalArgumentException(name + " must be at least 1 ms but was " + duration);
  }
}
