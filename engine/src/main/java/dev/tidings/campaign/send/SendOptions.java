package dev.tidings.campaign.send;

import dev.tidings.config.SettingsCatalog;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the send pipeline plans and works a run. Read once from {@code TIDINGS_SEND_*} (README,
 * "Settings"), checked, then fixed.
 *
 * @param partitionSize recipients per partition, the unit of work a worker leases
 * @param leaseTtl how long a partition's lease lasts without progress before another worker takes it
 *     over (renewed after every chunk)
 * @param slots partitions one worker node works at once (its consumers of the send queue)
 * @param sendersPerSlot emails of one partition in flight at once
 * @param chunkSize recipients claimed, sent and marked together (one ledger round trip each way)
 * @param maxDeferrals SMTP 4xx answers one recipient may get, each followed by a backoff, before it
 *     counts as failed
 * @param deferralBackoff the wait after the first 4xx, doubled after each further one
 * @param stateCacheTtl how long a worker trusts the run state it read (pause and cancel take effect
 *     within it)
 * @param queueName the work queue of partitions and triggered sends
 * @param receiptQueueName the queue that carries send outcomes to the delivery capability
 */
public record SendOptions(
    int partitionSize,
    Duration leaseTtl,
    int slots,
    int sendersPerSlot,
    int chunkSize,
    int maxDeferrals,
    Duration deferralBackoff,
    Duration stateCacheTtl,
    String queueName,
    String receiptQueueName) {

  public static final int DEFAULT_PARTITION_SIZE = SettingsCatalog.SEND_PARTITION_SIZE.intDefault();
  public static final Duration DEFAULT_LEASE_TTL = SettingsCatalog.SEND_LEASE_TTL.durationDefault();
  public static final int DEFAULT_SLOTS = SettingsCatalog.SEND_SLOTS.intDefault();
  public static final int DEFAULT_SENDERS_PER_SLOT = SettingsCatalog.SEND_SENDERS.intDefault();
  public static final int DEFAULT_CHUNK_SIZE = SettingsCatalog.SEND_CHUNK.intDefault();
  public static final int DEFAULT_MAX_DEFERRALS = 3;
  public static final Duration DEFAULT_DEFERRAL_BACKOFF = Duration.ofSeconds(1);
  public static final Duration DEFAULT_STATE_CACHE_TTL = Duration.ofSeconds(1);
  public static final String DEFAULT_QUEUE =
      SettingsCatalog.SEND_QUEUE.literalDefault().orElseThrow();
  public static final String DEFAULT_RECEIPT_QUEUE =
      SettingsCatalog.SEND_RECEIPT_QUEUE.literalDefault().orElseThrow();
  private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,190}");

  public SendOptions {
    Objects.requireNonNull(leaseTtl, "leaseTtl");
    Objects.requireNonNull(deferralBackoff, "deferralBackoff");
    Objects.requireNonNull(stateCacheTtl, "stateCacheTtl");
    Objects.requireNonNull(queueName, "queueName");
    Objects.requireNonNull(receiptQueueName, "receiptQueueName");
    require(partitionSize >= 1 && partitionSize <= 1_000_000, "partitionSize", partitionSize);
    require(slots >= 1 && slots <= 256, "slots", slots);
    require(sendersPerSlot >= 1 && sendersPerSlot <= 64, "sendersPerSlot", sendersPerSlot);
    require(chunkSize >= 1 && chunkSize <= 10_000, "chunkSize", chunkSize);
    require(maxDeferrals >= 0 && maxDeferrals <= 20, "maxDeferrals", maxDeferrals);
    if (leaseTtl.toMillis() < 500)
      throw new IllegalArgumentException("leaseTtl must be at least 500 ms but was " + leaseTtl);
    if (deferralBackoff.isNegative())
      throw new IllegalArgumentException("deferralBackoff must not be negative");
    // a deferred recipient waits while its partition's lease runs: all its waits must fit in half
    if (deferralBackoff.toMillis() * ((1L << maxDeferrals) - 1) >= leaseTtl.toMillis() / 2)
      throw new IllegalArgumentException("deferralBackoff " + deferralBackoff + " doubled "
          + maxDeferrals + " times is too long for the lease of " + leaseTtl);
    if (!QUEUE_NAME.matcher(queueName).matches())
      throw new IllegalArgumentException("queueName must be 1-190 of [A-Za-z0-9._-]");
    if (!QUEUE_NAME.matcher(receiptQueueName).matches())
      throw new IllegalArgumentException("receiptQueueName must be 1-190 of [A-Za-z0-9._-]");
  }

  public static SendOptions defaults() {
    return new SendOptions(
        DEFAULT_PARTITION_SIZE,
        DEFAULT_LEASE_TTL,
        DEFAULT_SLOTS,
        DEFAULT_SENDERS_PER_SLOT,
        DEFAULT_CHUNK_SIZE,
        DEFAULT_MAX_DEFERRALS,
        DEFAULT_DEFERRAL_BACKOFF,
        DEFAULT_STATE_CACHE_TTL,
        DEFAULT_QUEUE,
        DEFAULT_RECEIPT_QUEUE);
  }

  /**
   * The options {@code environment} sets ({@code TIDINGS_SEND_PARTITION_SIZE}, {@code _LEASE_TTL}
   * (ISO-8601 duration), {@code _SLOTS}, {@code _SENDERS}, {@code _CHUNK}, {@code _QUEUE}, {@code
   * _RECEIPT_QUEUE}), the defaults for the rest.
   */
  public static SendOptions fromEnvironment(Map<String, String> environment) {
    var d = defaults();
    Duration lease = duration(environment, SettingsCatalog.SEND_LEASE_TTL.name(), d.leaseTtl);
    // a short lease shortens the waits after a 4xx, which must fit in it
    Duration backoff = d.deferralBackoff.compareTo(lease.dividedBy(16)) <= 0
        ? d.deferralBackoff
        : lease.dividedBy(16);
    return new SendOptions(
        integer(environment, SettingsCatalog.SEND_PARTITION_SIZE.name(), d.partitionSize),
        lease,
        integer(environment, SettingsCatalog.SEND_SLOTS.name(), d.slots),
        integer(environment, SettingsCatalog.SEND_SENDERS.name(), d.sendersPerSlot),
        integer(environment, SettingsCatalog.SEND_CHUNK.name(), d.chunkSize),
        d.maxDeferrals,
        backoff,
        d.stateCacheTtl,
        environment.getOrDefault(SettingsCatalog.SEND_QUEUE.name(), d.queueName),
        environment.getOrDefault(SettingsCatalog.SEND_RECEIPT_QUEUE.name(), d.receiptQueueName));
  }

  public SendOptions withPartitionSize(int size) {
    return new SendOptions(
        size,
        leaseTtl,
        slots,
        sendersPerSlot,
        chunkSize,
        maxDeferrals,
        deferralBackoff,
        stateCacheTtl,
        queueName,
        receiptQueueName);
  }

  public SendOptions withLeaseTtl(Duration ttl) {
    return new SendOptions(
        partitionSize,
        ttl,
        slots,
        sendersPerSlot,
        chunkSize,
        maxDeferrals,
        deferralBackoff,
        stateCacheTtl,
        queueName,
        receiptQueueName);
  }

  public SendOptions withWorkers(int slotCount, int senders, int chunk) {
    return new SendOptions(
        partitionSize,
        leaseTtl,
        slotCount,
        senders,
        chunk,
        maxDeferrals,
        deferralBackoff,
        stateCacheTtl,
        queueName,
        receiptQueueName);
  }

  public SendOptions withDeferrals(int max, Duration backoff) {
    return new SendOptions(
        partitionSize,
        leaseTtl,
        slots,
        sendersPerSlot,
        chunkSize,
        max,
        backoff,
        stateCacheTtl,
        queueName,
        receiptQueueName);
  }

  public SendOptions withStateCacheTtl(Duration ttl) {
    return new SendOptions(
        partitionSize,
        leaseTtl,
        slots,
        sendersPerSlot,
        chunkSize,
        maxDeferrals,
        deferralBackoff,
        ttl,
        queueName,
        receiptQueueName);
  }

  public SendOptions withQueues(String queue, String receiptQueue) {
    return new SendOptions(
        partitionSize,
        leaseTtl,
        slots,
        sendersPerSlot,
        chunkSize,
        maxDeferrals,
        deferralBackoff,
        stateCacheTtl,
        queue,
        receiptQueue);
  }

  private static void require(boolean ok, String name, int value) {
    if (!ok) throw new IllegalArgumentException(name + " is out of range: " + value);
  }

  private static int integer(Map<String, String> environment, String name, int fallback) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) return fallback;
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number but was '" + value + "'");
    }
  }

  private static Duration duration(
      Map<String, String> environment, String name, Duration fallback) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) return fallback;
    try {
      return Duration.parse(value.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name + " must be an ISO-8601 duration such as PT30S but was '" + value + "'");
    }
  }
}
