package dev.tidings.delivery.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.coordination.MutableClock;
import dev.tidings.storage.Database;
import dev.tidings.testing.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The replay memory on the real PostgreSQL, as several nodes share it. */
class PostgresReplayGuardIT {
  private static Database database;

  @BeforeAll
  static void open() {
    database = TestDatabases.real();
  }

  @AfterAll
  static void close() {
    database.close();
  }

  @Test
  void a_token_is_taken_once_whichever_node_claims_it() throws Exception {
    var clock = new MutableClock();
    Instant expires = clock.instant().plus(Duration.ofMinutes(5));
    var nodes = new ArrayList<PostgresReplayGuard>();
    for (int i = 0; i < 4; i++) nodes.add(new PostgresReplayGuard(database.jdbi(), clock));
    try (var pool = Executors.newFixedThreadPool(4)) {
      var claims = new ArrayList<Future<Boolean>>();
      for (int round = 0; round < 8; round++)
        for (var node : nodes)
          claims.add(pool.submit((Callable<Boolean>) () -> node.claim("mailgun", "race", expires)));
      int won = 0;
      for (var claim : claims) if (claim.get()) won++;
      assertThat(won).isEqualTo(1);
    }
    // tokens are per provider
    assertThat(nodes.get(1).claim("other", "race", expires)).isTrue();
  }

  @Test
  void a_released_token_can_be_claimed_again() {
    var clock = new MutableClock();
    var guard = new PostgresReplayGuard(database.jdbi(), clock);
    Instant expires = clock.instant().plus(Duration.ofMinutes(5));
    assertThat(guard.claim("mailgun", "released", expires)).isTrue();
    guard.release("mailgun", "released");
    assertThat(guard.claim("mailgun", "released", expires)).isTrue();
    assertThat(guard.claim("mailgun", "released", expires)).isFalse();
  }

  @Test
  void expired_rows_are_purged_and_fresh_ones_kept() {
    var clock = new MutableClock();
    var guard = new PostgresReplayGuard(database.jdbi(), clock);
    assertThat(guard.claim("mailgun", "old", clock.instant().plusSeconds(60))).isTrue();
    assertThat(guard.claim("mailgun", "young", clock.instant().plusSeconds(600)))
        .isTrue();
    clock.advance(Duration.ofSeconds(120));
    assertThat(guard.purgeExpired()).isGreaterThanOrEqualTo(1);
    assertThat(guard.claim("mailgun", "young", clock.instant().plusSeconds(600)))
        .isFalse();
    assertThat(guard.claim("mailgun", "old", clock.instant().plusSeconds(60))).isTrue();
  }
}
