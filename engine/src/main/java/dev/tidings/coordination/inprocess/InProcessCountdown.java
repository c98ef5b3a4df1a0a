package dev.tidings.coordination.inprocess;

import dev.tidings.coordination.Countdown;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * {@link Countdown} for one JVM. Every operation runs inside {@link ConcurrentHashMap#compute} for its
 * countdown, which makes it atomic and lets a sweep forget countdowns past their retention safely.
 *
 * <p>A new fence is at least the clock in microseconds: the state dies with the process, the clock
 * does not, so a lease from before a restart (or from a forgotten run of the same name) can never
 * match a part of a later run.
 */
final class InProcessCountdown implements Countdown {
  private final InstantSource clock;
  private final ConcurrentHashMap<String, Job> jobs = new ConcurrentHashMap<>();
  private final Sweeper sweeper;

  InProcessCountdown(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sweeper = new Sweeper(clock, Duration.ofSeconds(1));
  }

  /** One countdown; mutated only inside {@code compute} for its name. */
  private static final class Job {
    final int parts;
    final String starter;
    final Duration retention;
    long remaining;
    final long[] fences;
    final @Nullable Instant[] leaseExpiries;
    final boolean[] done;
    final long[] remainingWhenDone;
    final @Nullable String[] holders;
    volatile Instant forgetAt;

    Job(int parts, String starter, Duration retention, Instant now) {
      this.parts = parts;
      this.starter = starter;
      this.retention = retention;
      this.remaining = parts;
      this.fences = new long[parts];
      this.leaseExpiries = new Instant[parts];
      this.done = new boolean[parts];
      this.remainingWhenDone = new long[parts];
      this.holders = new String[parts];
      this.forgetAt = now.plus(retention);
    }

    boolean forgotten(Instant now) {
      return !now.isBefore(forgetAt);
    }

    void touched(Instant now) {
      forgetAt = now.plus(retention);
    }

    void checkPart(int part) {
      if (part < 0 || part >= parts) {
        throw new IllegalArgumentException(
            "part must be within 0.." + (parts - 1) + " but was " + part);
      }
    }

    boolean leaseLive(int part, Instant now) {
      Instant expiry = leaseExpiries[part];
      return expiry != null && now.isBefore(expiry);
    }
  }

  @Override
  public boolean start(String name, int parts, String starter, Duration retention) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(starter, "starter");
    if (parts < 1) throw new IllegalArgumentException("parts must be at least 1 but was " + parts);
    requirePositive(retention, "retention");
    sweeper.maybeSweep(this::sweep);
    Instant now = clock.instant();
    boolean[] created = new boolean[1];
    jobs.compute(name, (n, job) -> {
      if (job != null && !job.forgotten(now)) {
        created[0] = job.starter.equals(starter);
        return job;
      }
      created[0] = true;
      return new Job(parts, starter, retention, now);
    });
    return created[0];
  }

  @Override
  public Optional<Lease> claim(String name, int part, String holder, Duration leaseTtl) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(holder, "holder");
    requirePositive(leaseTtl, "leaseTtl");
    sweeper.maybeSweep(this::sweep);
    Instant now = clock.instant();
    Lease[] lease = new Lease[1];
    jobs.computeIfPresent(name, (n, job) -> {
      if (job.forgotten(now)) return null;
      job.checkPart(part);
      if (job.done[part]) return job;
      if (job.leaseLive(part, now)) {
        if (!holder.equals(job.holders[part])) return job;
      } else {
        job.fences[part] = Math.max(job.fences[part] + 1, micros(now));
        job.holders[part] = holder;
      }
      job.leaseExpiries[part] = now.plus(leaseTtl);
      job.touched(now);
      lease[0] = new Lease(name, part, job.fences[part]);
      return job;
    });
    return Optional.ofNullable(lease[0]);
  }

  @Override
  public boolean renew(Lease lease, Duration leaseTtl) {
    Objects.requireNonNull(lease, "lease");
    requirePositive(leaseTtl, "leaseTtl");
    Instant now = clock.instant();
    boolean[] renewed = new boolean[1];
    jobs.computeIfPresent(lease.name(), (n, job) -> {
      if (job.forgotten(now)) return null;
      job.checkPart(lease.part());
      // the fence, not the clock, decides: an expired lease nobody took over may still be renewed
      if (job.done[lease.part()] || job.fences[lease.part()] != lease.fence()) return job;
      job.leaseExpiries[lease.part()] = now.plus(leaseTtl);
      job.touched(now);
      renewed[0] = true;
      return job;
    });
    return renewed[0];
  }

  @Override
  public Finish finish(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    Instant now = clock.instant();
    Finish[] finish = {new Finish.Refused("countdown " + lease.name() + " does not exist")};
    jobs.computeIfPresent(lease.name(), (n, job) -> {
      if (job.forgotten(now)) return null;
      int part = lease.part();
      job.checkPart(part);
      if (job.done[part]) {
        // a done part keeps its last fence, so a retry by its finisher gets the first answer again
        finish[0] = job.fences[part] == lease.fence()
            ? new Finish.Done(job.remainingWhenDone[part])
            : new Finish.Refused("part " + part + " is already done");
      } else if (job.fences[part] != lease.fence()) {
        finish[0] = new Finish.Refused("lease on part " + part + " was taken over (fence "
            + lease.fence() + ", current " + job.fences[part] + ")");
      } else {
        job.done[part] = true;
        job.leaseExpiries[part] = null;
        job.remaining--;
        job.remainingWhenDone[part] = job.remaining;
        job.touched(now);
        finish[0] = new Finish.Done(job.remaining);
      }
      return job;
    });
    return finish[0];
  }

  @Override
  public List<Integer> stuck(String name) {
    Objects.requireNonNull(name, "name");
    Instant now = clock.instant();
    List<Integer> stuck = new ArrayList<>();
    jobs.computeIfPresent(name, (n, job) -> {
      if (job.forgotten(now)) return null;
      for (int part = 0; part < job.parts; part++) {
        if (job.fences[part] > 0 && !job.done[part] && !job.leaseLive(part, now)) stuck.add(part);
      }
      return job;
    });
    return List.copyOf(stuck);
  }

  @Override
  public OptionalLong remaining(String name) {
    Objects.requireNonNull(name, "name");
    Instant now = clock.instant();
    long[] remaining = {-1};
    jobs.computeIfPresent(name, (n, job) -> {
      if (job.forgotten(now)) return null;
      remaining[0] = job.remaining;
      return job;
    });
    return remaining[0] < 0 ? OptionalLong.empty() : OptionalLong.of(remaining[0]);
  }

  private static long micros(Instant now) {
    return Math.addExact(
        Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
  }

  private void sweep(Instant now) {
    jobs.values().removeIf(job -> job.forgotten(now));
  }

  static void requirePositive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.toMillis() < 1)
      throw new IllegalArgumentException(name + " must be at least 1 ms but was " + duration);
  }
}
