package dev.tidings.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidings.coordination.Countdown.Finish;
import dev.tidings.coordination.Countdown.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link Countdown} must do; lease TTLs are short because the Redis run really waits them. */
public abstract class CountdownContract {
  protected static final Duration LEASE = Duration.ofMillis(400);
  protected static final Duration RETENTION = Duration.ofMinutes(5);

  protected Countdown countdown;

  protected abstract Countdown create();

  protected abstract void advance(Duration duration);

  /**
   * The backend loses every countdown at once, as Redis does on a restart without persistence, a
   * process on a restart, or a database whose rows are deleted. Answers the countdown to go on with
   * (a new instance where the old one died with its state).
   */
  protected abstract Countdown loseEverything();

  @BeforeEach
  void createImplementation() {
    countdown = create();
  }

  protected static String uniqueName() {
    return "campaign-" + UUID.randomUUID();
  }

  @Test
  void start_creates_only_if_absent() {
    String name = uniqueName();

    assertThat(countdown.start(name, 3, RETENTION)).isTrue();
    assertThat(countdown.start(name, 5, RETENTION)).isFalse();
    assertThat(countdown.remaining(name)).hasValue(3);
  }

  @Test
  void a_repeated_start_by_its_starter_answers_created_again_and_changes_nothing() {
    String name = uniqueName();
    assertThat(countdown.start(name, 3, "run-1", RETENTION)).isTrue();
    assertThat(countdown.finish(countdown.claim(name, 0, LEASE).orElseThrow()))
        .isEqualTo(new Finish.Done(2));

    assertThat(countdown.start(name, 3, "run-1", RETENTION))
        .as("a retry after a lost reply, or a command the client re-sent")
        .isTrue();
    assertThat(countdown.start(name, 3, "run-2", RETENTION))
        .as("another starter")
        .isFalse();
    assertThat(countdown.remaining(name)).as("not started over").hasValue(2);
  }

  @Test
  void a_lease_from_a_lost_run_is_refused_when_the_countdown_starts_again() {
    String name = uniqueName();
    countdown.start(name, 2, RETENTION);
    Lease first = countdown.claim(name, 0, "message-7", LEASE).orElseThrow();
    advance(LEASE.plusMillis(200));
    Lease stale = countdown.claim(name, 0, "message-7", LEASE).orElseThrow();
    assertThat(stale.fence()).isGreaterThan(first.fence());

    countdown = loseEverything();
    advance(Duration.ofMillis(1)); // a restart takes time
    assertThat(countdown.remaining(name)).isEmpty();
    assertThat(countdown.start(name, 2, RETENTION)).isTrue();

    assertThat(countdown.finish(stale))
        .as("the part is not claimed in the new run")
        .isInstanceOf(Finish.Refused.class);
    Lease current = countdown.claim(name, 0, "message-7", LEASE).orElseThrow();

    assertThat(current.fence())
        .as("fences of a part grow across the loss, even for the same holder")
        .isGreaterThan(stale.fence());
    assertThat(countdown.renew(stale, LEASE)).isFalse();
    assertThat(countdown.finish(stale))
        .isInstanceOfSatisfying(
            Finish.Refused.class, refused -> assertThat(refused.reason()).contains("taken over"));
    assertThat(countdown.remaining(name)).hasValue(2);
    assertThat(countdown.renew(current, LEASE)).isTrue();
    assertThat(countdown.finish(current)).isEqualTo(new Finish.Done(1));
    assertThat(countdown.finish(stale)).isInstanceOf(Finish.Refused.class);
    assertThat(countdown.remaining(name)).hasValue(1);
  }

  @Test
  void finishing_every_part_counts_down_to_zero() {
    String name = uniqueName();
    countdown.start(name, 3, RETENTION);

    List<Finish> finishes = new ArrayList<>();
    for (int part = 0; part < 3; part++)
      finishes.add(countdown.finish(countdown.claim(name, part, LEASE).orElseThrow()));

    assertThat(finishes)
        .containsExactly(new Finish.Done(2), new Finish.Done(1), new Finish.Done(0));
    assertThat(countdown.remaining(name)).hasValue(0);
  }

  @Test
  void a_part_is_finished_only_once_and_a_repeated_finish_answers_the_same() {
    String name = uniqueName();
    countdown.start(name, 2, RETENTION);
    Lease lease = countdown.claim(name, 1, LEASE).orElseThrow();

    assertThat(countdown.finish(lease)).isEqualTo(new Finish.Done(1));
    assertThat(countdown.finish(lease))
        .as("a retry by the finisher, as after a lost reply")
        .isEqualTo(new Finish.Done(1));
    assertThat(countdown.finish(new Lease(name, 1, lease.fence() + 1)))
        .as("any other lease on a done part")
        .isInstanceOfSatisfying(
            Finish.Refused.class, refused -> assertThat(refused.reason()).contains("already done"));
    assertThat(countdown.remaining(name)).hasValue(1);
    assertThat(countdown.claim(name, 1, LEASE))
        .as("a done part cannot be claimed")
        .isEmpty();
  }

  @Test
  void a_live_lease_cannot_be_claimed_by_another_worker() {
    String name = uniqueName();
    countdown.start(name, 1, RETENTION);

    assertThat(countdown.claim(name, 0, LEASE)).isPresent();
    assertThat(countdown.claim(name, 0, LEASE)).isEmpty();
  }

  @Test
  void after_a_takeover_the_stale_lease_can_neither_renew_nor_finish() {
    String name = uniqueName();
    countdown.start(name, 2, RETENTION);
    Lease stale = countdown.claim(name, 0, LEASE).orElseThrow();

    advance(LEASE.plusMillis(200));
    assertThat(countdown.stuck(name)).containsExactly(0);
    Lease current = countdown.claim(name, 0, LEASE).orElseThrow();

    assertThat(current.fence()).isGreaterThan(stale.fence());
    assertThat(countdown.renew(stale, LEASE)).isFalse();
    assertThat(countdown.finish(stale))
        .isInstanceOfSatisfying(
            Finish.Refused.class, refused -> assertThat(refused.reason()).contains("taken over"));
    assertThat(countdown.finish(current)).isEqualTo(new Finish.Done(1));
    assertThat(countdown.finish(stale)).isInstanceOf(Finish.Refused.class);
    assertThat(countdown.remaining(name)).hasValue(1);
  }

  @Test
  void renewing_keeps_a_lease_alive_past_its_ttl() {
    String name = uniqueName();
    countdown.start(name, 1, RETENTION);
    Lease lease = countdown.claim(name, 0, LEASE).orElseThrow();

    advance(Duration.ofMillis(250));
    assertThat(countdown.renew(lease, LEASE)).isTrue();
    advance(Duration.ofMillis(250)); // past the first TTL, within the renewed one

    assertThat(countdown.claim(name, 0, LEASE)).isEmpty();
    assertThat(countdown.stuck(name)).isEmpty();
    assertThat(countdown.finish(lease)).isEqualTo(new Finish.Done(0));
  }

  @Test
  void stuck_lists_the_claimed_unfinished_parts_whose_lease_expired() {
    String name = uniqueName();
    countdown.start(name, 4, RETENTION);
    assertThat(countdown.claim(name, 0, LEASE)).isPresent();
    countdown.finish(countdown.claim(name, 1, LEASE).orElseThrow());
    assertThat(countdown.claim(name, 3, LEASE)).isPresent();

    assertThat(countdown.stuck(name)).isEmpty();
    advance(LEASE.plusMillis(200));
    Lease renewedLate = countdown.claim(name, 3, LEASE).orElseThrow();

    assertThat(countdown.stuck(name))
        .as("never claimed (2), done (1) and re-claimed (3) parts are not stuck")
        .containsExactly(0);
    assertThat(renewedLate.part()).isEqualTo(3);
  }

  @Test
  void a_repeated_claim_by_its_holder_gets_its_own_lease_back() {
    String name = uniqueName();
    countdown.start(name, 1, RETENTION);
    Lease first = countdown.claim(name, 0, "message-7", LEASE).orElseThrow();

    assertThat(countdown.claim(name, 0, "message-7", LEASE))
        .as("a retry after a lost reply")
        .contains(first);
    assertThat(countdown.claim(name, 0, "message-8", LEASE))
        .as("another holder while the lease is live")
        .isEmpty();
    assertThat(countdown.finish(first)).isEqualTo(new Finish.Done(0));
    assertThat(countdown.claim(name, 0, "message-7", LEASE)).as("a done part").isEmpty();
  }

  @Test
  void concurrent_finishes_count_down_exactly_once_per_part() {
    String name = uniqueName();
    int parts = 40;
    countdown.start(name, parts, RETENTION);
    List<Lease> leases = new ArrayList<>();
    for (int part = 0; part < parts; part++)
      leases.add(countdown.claim(name, part, Duration.ofMinutes(1)).orElseThrow());

    try (Race race = new Race()) {
      List<Future<Finish>> futures = new ArrayList<>();
      for (Lease lease : leases) {
        futures.add(race.add(() -> countdown.finish(lease)));
        futures.add(
            race.add(() -> countdown.finish(lease))); // a duplicate, as from a redelivered message
      }
      List<Finish> finishes = race.all(futures, Duration.ofSeconds(15));

      assertThat(finishes).allSatisfy(f -> assertThat(f).isInstanceOf(Finish.Done.class));
      // each part's two finishes got one answer: counted once, so every remainder 0..parts-1 once
      for (int part = 0; part < parts; part++) {
        assertThat(finishes.get(2 * part)).isEqualTo(finishes.get(2 * part + 1));
      }
      List<Long> remainders = new ArrayList<>();
      for (int part = 0; part < parts; part++) {
        remainders.add(((Finish.Done) finishes.get(2 * part)).remaining());
      }
      assertThat(remainders)
          .doesNotHaveDuplicates()
          .allSatisfy(r -> assertThat(r).isBetween(0L, parts - 1L));
      assertThat(countdown.remaining(name)).hasValue(0);
    }
  }

  @Test
  void an_unknown_countdown_has_nothing_to_claim_or_finish() {
    String name = uniqueName();

    assertThat(countdown.claim(name, 0, LEASE)).isEmpty();
    assertThat(countdown.remaining(name)).isEmpty();
    assertThat(countdown.stuck(name)).isEmpty();
    assertThat(countdown.renew(new Lease(name, 0, 1), LEASE)).isFalse();
    assertThat(countdown.finish(new Lease(name, 0, 1)))
        .isInstanceOfSatisfying(
            Finish.Refused.class,
            refused -> assertThat(refused.reason()).contains("does not exist"));
  }

  @Test
  void a_countdown_is_forgotten_after_its_retention() {
    String name = uniqueName();
    countdown.start(name, 2, Duration.ofMillis(500));

    advance(Duration.ofMillis(700));

    assertThat(countdown.remaining(name)).isEmpty();
    assertThat(countdown.start(name, 2, RETENTION)).isTrue();
  }

  @Test
  void invalid_arguments_are_rejected_with_what_was_wrong() {
    String name = uniqueName();
    countdown.start(name, 3, RETENTION);

    assertThatThrownBy(() -> countdown.start(uniqueName(), 0, RETENTION))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parts must be at least 1 but was 0");
    assertThatThrownBy(() -> countdown.claim(name, 3, LEASE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("part must be within 0..2 but was 3");
    assertThatThrownBy(() -> countdown.claim(name, -1, LEASE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("part must be within 0..2 but was -1");
    assertThatThrownBy(() -> countdown.claim(name, 0, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaseTtl");
    assertThat(countdown.remaining(name)).hasValue(3);
  }
}
