package dev.tidings.audience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.storage.Database;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/** What every database behind {@link SuppressionService} must do. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
public abstract class SuppressionContract {
  private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
  private Database database;
  private SuppressionService suppressions;

  protected abstract Database openDatabase();

  @BeforeAll
  void open() {
    database = openDatabase();
    suppressions = new SuppressionService(database.jdbi(), InstantSource.fixed(NOW));
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void empty() {
    database.jdbi().useHandle(handle -> handle.execute("TRUNCATE suppressions"));
  }

  // An address suppressed while someone lifts its suppression: each call answers, none fails.
  @Test
  void suppressing_while_the_address_is_unsuppressed_concurrently_always_answers_a_suppression()
      throws Exception {
    var failures = new ConcurrentLinkedQueue<Throwable>();
    var stop = new AtomicBoolean();
    var threads = new ArrayList<Thread>();
    for (int t = 0; t < 4; t++) {
      boolean suppressing = t % 2 == 0;
      threads.add(Thread.ofPlatform().start(() -> {
        while (!stop.get()) {
          try {
            if (suppressing) {
              var answer = suppressions.suppress(
                  new Suppression("race@example.com", SuppressionReason.MANUAL, NOW));
              assertThat(answer.email()).isEqualToIgnoringCase("race@example.com");
            } else {
              suppressions.unsuppress("race@example.com");
            }
          } catch (Throwable e) {
            failures.add(e);
            stop.set(true);
          }
        }
      }));
    }
    Thread.sleep(3_000);
    stop.set(true);
    for (Thread thread : threads) thread.join();
    assertThat(failures).isEmpty();
  }

  @Test
  void suppressions_match_any_case_keep_the_first_reason_and_page() {
    assertThat(suppressions.isSuppressed("x@example.com")).isFalse();
    var first =
        suppressions.suppress(new Suppression("X@Example.com", SuppressionReason.BOUNCE, NOW));
    var again = suppressions.suppress(
        new Suppression("x@example.com", SuppressionReason.COMPLAINT, NOW.plusSeconds(1)));
    assertThat(again).isEqualTo(first);
    assertThat(suppressions.get("x@EXAMPLE.com")).contains(first);
    assertThat(suppressions.isSuppressed("x@EXAMPLE.com")).isTrue();
    suppressions.suppress(new Suppression("a@example.com", SuppressionReason.MANUAL, NOW));
    suppressions.suppress(new Suppression("m@example.com", SuppressionReason.UNSUBSCRIBE, NOW));
    assertThat(suppressions.list(Optional.empty(), 2))
        .extracting(Suppression::email)
        .containsExactly("a@example.com", "m@example.com");
    assertThat(suppressions.list(Optional.of("m@example.com"), 2))
        .extracting(Suppression::email)
        .containsExactly("X@example.com");
    assertThat(suppressions.unsuppress("x@example.com")).isTrue();
    assertThat(suppressions.unsuppress("x@example.com")).isFalse();
    assertThat(suppressions.isSuppressed("x@example.com")).isFalse();
    assertThat(suppressions.get("x@example.com")).isEmpty();
  }

  @Test
  void a_suppression_reads_back_with_its_reason_and_date() {
    var stored = suppressions.suppress(
        new Suppression("b@example.com", SuppressionReason.COMPLAINT, NOW.plusSeconds(7)));
    assertThat(stored)
        .isEqualTo(
            new Suppression("b@example.com", SuppressionReason.COMPLAINT, NOW.plusSeconds(7)));
  }
}
