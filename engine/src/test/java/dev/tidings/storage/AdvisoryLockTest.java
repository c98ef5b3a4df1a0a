package dev.tidings.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AdvisoryLockTest {
  @Test
  void no_two_locks_share_a_number() {
    Map<Integer, List<AdvisoryLock>> byNumber =
        Arrays.stream(AdvisoryLock.values()).collect(Collectors.groupingBy(AdvisoryLock::number));
    assertThat(byNumber).allSatisfy((number, locks) -> assertThat(locks).hasSize(1));
  }

  @Test
  void every_lock_says_what_it_serialises() {
    assertThat(AdvisoryLock.values())
        .allSatisfy(lock -> assertThat(lock.purpose()).isNotBlank());
  }

  @Test
  void a_key_space_is_not_taken_as_one_lock() {
    assertThatThrownBy(AdvisoryLock.RECEIPT_MESSAGE::key).isInstanceOf(IllegalStateException.class);
    assertThat(AdvisoryLock.RETENTION_RUN.key()).isEqualTo(7_310L);
  }

  @Test
  void the_partitions_of_aggregated_people_and_of_notifications_have_locks_of_their_own() {
    assertThat(AdvisoryLock.DISTINCT_PEOPLE_PARTITIONS.number())
        .isNotEqualTo(AdvisoryLock.NOTIFICATION_PARTITIONS.number());
  }
}
