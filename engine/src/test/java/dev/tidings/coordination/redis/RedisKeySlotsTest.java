package dev.tidings.coordination.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * In a Redis Cluster, every key of one command or script must live in one hash slot (else CROSSSLOT).
 * For every key family the Redis adapters build, this computes each key's slot as the cluster does and
 * checks that the keys one call takes share it, for ordinary keys and for the awkward ones: empty, and
 * holding or starting with braces, where Redis' hash tag rule could hash the whole key.
 */
class RedisKeySlotsTest {
  private static final List<String> PREFIXES = List.of("tidings:", "", "tenant-7:");
  private static final List<String> LOGICAL_KEYS = List.of(
      "slots:7.123.ada",
      "email-" + UUID.randomUUID(),
      "",
      "}",
      "}starts-closed",
      "{",
      "{opens",
      "a}b",
      "a{b}c",
      "{}",
      "ü-ñ-字");

  @Test
  void compute_once_keys_of_one_logical_key_share_a_slot() {
    for (String prefix : PREFIXES) {
      for (String key : LOGICAL_KEYS) {
        RedisComputeOnce.Keys keys = RedisComputeOnce.keys(prefix, key);
        // ACQUIRE takes published, lock, fence; PUBLISH published, lock; RELEASE lock
        assertOneSlot(keys.all(), prefix, key);
        assertOneSlot(List.of(keys.published(), keys.lock()), prefix, key);
      }
    }
  }

  @Test
  void countdowns_and_rate_limit_buckets_take_one_key_per_call_whose_tag_is_not_empty() {
    for (String prefix : PREFIXES) {
      for (String key : LOGICAL_KEYS) {
        // one key per call: one slot by construction; the tag still decides where it lives
        String countdown = RedisCountdown.key(prefix, key);
        String bucket = RedisRateLimiter.bucket(prefix, key);
        assertThat(tagOf(countdown)).as("hash tag of %s", countdown).isNotEmpty();
        assertThat(tagOf(bucket)).as("hash tag of %s", bucket).isNotEmpty();
      }
    }
  }

  @Test
  void different_logical_keys_never_share_redis_keys() {
    Set<String> seen = new HashSet<>();
    for (String key : LOGICAL_KEYS) {
      assertThat(seen.addAll(RedisComputeOnce.keys("tidings:", key).all()))
          .as("keys of %s", key)
          .isTrue();
      assertThat(seen.add(RedisCountdown.key("tidings:", key))).isTrue();
      assertThat(seen.add(RedisRateLimiter.bucket("tidings:", key))).isTrue();
    }
  }

  @Test
  void ordinary_keys_spread_over_the_slots() {
    Set<Integer> slots = new HashSet<>();
    for (int i = 0; i < 200; i++)
      slots.add(SlotHash.getSlot(RedisComputeOnce.keys("tidings:", "email-" + i).lock()));
    assertThat(slots).hasSizeGreaterThan(150); // the tag is the key, not something constant
  }

  private static void assertOneSlot(List<String> keys, String prefix, String key) {
    Set<Integer> slots = new HashSet<>();
    for (String redisKey : keys) slots.add(SlotHash.getSlot(redisKey));
    assertThat(slots)
        .as("slots of %s for key '%s' under prefix '%s'", keys, key, prefix)
        .hasSize(1);
    assertThat(tagOf(keys.getFirst())).as("hash tag of %s", keys.getFirst()).isNotEmpty();
  }

  /** The part Redis hashes: between the first '{' and the next '}', when that is not empty. */
  private static String tagOf(String redisKey) {
    int open = redisKey.indexOf('{');
    int close = open < 0 ? -1 : redisKey.indexOf('}', open + 1);
    return close > open + 1 ? redisKey.substring(open + 1, close) : "";
  }
}
