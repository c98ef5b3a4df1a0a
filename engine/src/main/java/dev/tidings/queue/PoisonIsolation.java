package dev.tidings.queue;

import dev.tidings.LogText;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one bad message from sinking the good ones of its batch. When the handler throws for a
 * batch, the batch is split in halves and each half handled on its own, again and again, until the
 * message that fails is alone: every other message is handled (and acknowledged) and that one is
 * rejected, so dead-lettered at once with the reason of its failure. A failure that is not about the
 * messages ({@link TransientFailure}: the database down, a lost connection, a serialization failure,
 * a timeout), an {@link Error} or an interrupted handler (its time limit) is not split: it retries
 * the whole batch, as before, so an outage never turns good messages into dead letters.
 *
 * <p>Handlers are idempotent (delivery is at least once), so handling part of a batch again after
 * the whole failed is safe; a handler that applies a batch in one transaction has applied nothing
 * when it throws. Isolating one message of {@code n} costs about {@code 2 log2 n} more calls.
 *
 * <p>Every message given up on here, whether isolated or rejected by the handler itself, is logged at
 * WARN (queue, message id, reason; never the body); an isolated one is counted in {@code
 * tidings_queue_poison_isolated_total{queue}}, and, as every dead letter is, by its queue's settlement
 * ({@link QueueCounters}). Both adapters wrap every batch handler in this, so every batch consumer
 * gets it.
 */
public final class PoisonIsolation implements BatchHandler {
  public static final String METRIC = "tidings_queue_poison_isolated";
  private static final Logger log = LoggerFactory.getLogger(PoisonIsolation.class);
  private static final int MAX_REASON = 500;

  private final String queue;
  private final BatchHandler handler;
  private final Counter poison;

  private PoisonIsolation(String queue, BatchHandler handler, MeterRegistry metrics) {
    this.queue = queue;
    this.handler = handler;
    this.poison = Counter.builder(METRIC)
        .description("Messages a batch consumer isolated as poison: each failed its batch alone")
        .tag("queue", queue)
        .register(metrics);
  }

  /** {@code handler} of {@code queue} with poison isolation, counting in {@code metrics}. */
  public static BatchHandler around(String queue, BatchHandler handler, MeterRegistry metrics) {
    if (handler instanceof PoisonIsolation) return handler;
    return new PoisonIsolation(queue, handler, metrics);
  }

  @Override
  public BatchResult handle(List<Delivery> batch) throws Exception {
    Map<String, Disposition> exceptions = new HashMap<>();
    Set<String> isolated = new HashSet<>();
    isolate(batch, exceptions, isolated);
    for (Map.Entry<String, Disposition> entry : exceptions.entrySet()) {
      if (entry.getValue() instanceof Disposition.Reject reject
          && !isolated.contains(entry.getKey())) {
        log.warn(
            "dead-lettering message {} of queue '{}': rejected by its handler: {}",
            LogText.of(entry.getKey()),
            queue,
            LogText.of(reject.reason()));
      }
    }
    return BatchResult.except(exceptions);
  }

  private void isolate(
      List<Delivery> batch, Map<String, Disposition> exceptions, Set<String> isolated)
      throws Exception {
    try {
      exceptions.putAll(handler.handle(batch).exceptions());
    } catch (Exception e) {
      if (TransientFailure.is(e) || Thread.currentThread().isInterrupted()) throw e;
      if (batch.size() == 1) {
        Delivery alone = batch.getFirst();
        String reason = "poison message: " + describe(e);
        isolated.add(alone.messageId());
        poison.increment();
        log.warn(
            "dead-lettering message {} of queue '{}' (delivery {}): it fails alone: {}",
            LogText.of(alone.messageId()),
            queue,
            alone.deliveryCount(),
            LogText.of(reason));
        exceptions.put(alone.messageId(), Disposition.reject(reason));
        return;
      }
      int half = batch.size() / 2;
      isolate(batch.subList(0, half), exceptions, isolated);
      isolate(batch.subList(half, batch.size()), exceptions, isolated);
    }
  }

  /**
   * The innermost cause's class and words, bounded: outer exceptions (a statement's, with its
   * arguments) would put message contents into the dead letter and the log.
   */
  static String describe(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String text = root.getClass().getSimpleName() + ": " + root.getMessage();
    text = text.replace('\u0000', '?').replaceAll("\\s+", " ");
    return text.length() > MAX_REASON ? text.substring(0, MAX_REASON) + "..." : text;
  }
}
