package dev.tidings.queue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link WorkQueue} promises. Each test uses a queue of its own with a random name, and
 * every wait is bounded.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public abstract class WorkQueueContract {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration HANDLER_TIMEOUT = Duration.ofSeconds(60);

  /** A new client of the shared backend, as another process would have; the suite closes it. */
  protected abstract WorkQueue openQueue();

  /** Makes {@code queue} behave as a process killed now: nothing it holds is acknowledged. */
  protected abstract void crash(WorkQueue queue);

  /** Lease length for queues in this suite; short, since dead consumers are only noticed through it where the backend cannot tell. */
  protected Duration visibilityTimeout() {
    return Duration.ofMillis(500);
  }

  /** Makes the backend stop confirming publishes to {@code queue} until the result is closed. */
  protected abstract AutoCloseable stallPublishing(WorkQueue queue);

  /** How many messages may reach the backend unconfirmed while publishing is stalled (the publish cap). */
  protected abstract int publishBufferBound();

  /** Removes whatever the backend keeps of queue {@code name} and its dead letters. */
  protected void deleteQueue(String name) {}

  /** Where the queues of this suite count what they dead-letter; {@link #openQueue()} passes it. */
  protected final MeterRegistry metrics = new SimpleMeterRegistry();

  protected WorkQueue queue;
  protected String name;
  private final List<AutoCloseable> cleanups = new ArrayList<>();
  private final CountDownLatch releaseBlockedHandlers = new CountDownLatch(1);

  @BeforeEach
  void openQueueAndName() {
    queue = opened(openQueue());
    name = "wq-" + UUID.randomUUID().toString().substring(0, 12);
  }

  @AfterEach
  void cleanUp() throws Exception {
    releaseBlockedHandlers.countDown();
    Collections.reverse(cleanups);
    for (AutoCloseable cleanup : cleanups) cleanup.close();
    deleteQueue(name);
  }

  protected final WorkQueue opened(WorkQueue workQueue) {
    cleanups.add(workQueue);
    return workQueue;
  }

  private Subscription subscribed(Subscription subscription) {
    cleanups.add(subscription);
    return subscription;
  }

  /** Strict priorities and immediate retries, so that ordering and counting tests are exact and fast. */
  private QueueSpec spec(int maxDeliveries) {
    return new QueueSpec(
        name,
        QueueSpec.MAX_PRIORITY,
        maxDeliveries,
        visibilityTimeout(),
        HANDLER_TIMEOUT,
        RetryPolicy.IMMEDIATE,
        0);
  }

  private static Message text(String body, int priority) {
    return Message.of(body.getBytes(UTF_8), priority);
  }

  static String text(Delivery delivery) {
    return new String(delivery.body(), UTF_8);
  }

  private static String text(DeadLetter letter) {
    return new String(letter.body(), UTF_8);
  }

  private double deadLettersCounted(String reasonClass) {
    return counted(QueueCounters.DEAD_LETTERS, "reason_class", reasonClass);
  }

  private double poisonIsolated() {
    Counter counter = metrics.find(PoisonIsolation.METRIC).tag("queue", name).counter();
    return counter == null ? 0 : counter.count();
  }

  private double counted(String metric, String... tags) {
    Counter counter = metrics.find(metric).tag("queue", name).tags(tags).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void published_message_is_consumed_with_body_priority_and_headers_intact() throws Exception {
    queue.declare(spec(3));
    byte[] body = {0, 1, 2, (byte) 0xff, 'x'};
    queue.publish(name, new Message(body, 7, Map.of("campaign", "c-42", "kind", "bulk")));

    BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      received.add(delivery);
      return Disposition.ACK;
    }));

    Delivery delivery = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(delivery).as("delivery within %s", WAIT).isNotNull();
    assertThat(delivery.body()).containsExactly(body);
    assertThat(delivery.priority()).isEqualTo(7);
    assertThat(delivery.headers()).isEqualTo(Map.of("campaign", "c-42", "kind", "bulk"));
    assertThat(delivery.deliveryCount()).isEqualTo(1);
    assertThat(delivery.redelivered()).isFalse();
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(received.poll(300, TimeUnit.MILLISECONDS))
        .as("an acked message comes back")
        .isNull();
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  @Test
  void messages_of_one_priority_are_delivered_in_publish_order() {
    queue.declare(spec(3));
    List<String> sent = IntStream.range(0, 30).mapToObj(i -> "m" + i).toList();
    queue.publishAll(name, sent.stream().limit(10).map(body -> text(body, 4)).toList());
    sent.stream().skip(10).forEach(body -> queue.publish(name, text(body, 4)));

    assertThat(consumeInOrder(sent.size())).isEqualTo(sent);
  }

  @Test
  void higher_priority_is_delivered_before_earlier_lower_priority() {
    queue.declare(spec(3));
    List<String> low = IntStream.range(0, 10).mapToObj(i -> "low" + i).toList();
    List<String> high = IntStream.range(0, 5).mapToObj(i -> "high" + i).toList();
    queue.publishAll(name, low.stream().map(body -> text(body, 1)).toList());
    queue.publishAll(name, high.stream().map(body -> text(body, 8)).toList());

    List<String> expected = new ArrayList<>(high);
    expected.addAll(low);
    assertThat(consumeInOrder(expected.size())).isEqualTo(expected);
  }

  /** Seed 05: producer A pushes 1, 3, 4 at priority high, B pushes 2 at low; consumer C fetches 1, 3, 4, 2. */
  @Test
  void seed_05_two_producers_one_consumer_high_priority_overtakes() throws Exception {
    queue.declare(spec(3));
    WorkQueue producerB = opened(openQueue());
    var firstTaken = new CountDownLatch(1);
    var mayFinishFirst = new CountDownLatch(1);
    List<String> fetched = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      fetched.add(text(delivery));
      if (fetched.size() == 1) {
        firstTaken.countDown();
        mayFinishFirst.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      }
      return Disposition.ACK;
    }));

    queue.publish(name, text("1", 9)); // A at t0
    assertThat(firstTaken.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .as("C fetched 1")
        .isTrue();
    producerB.publish(name, text("2", 0)); // B at t1
    queue.publish(name, text("3", 9)); // A at t2
    queue.publish(name, text("4", 9)); // A at t3
    mayFinishFirst.countDown();

    awaitUntil("all four fetched", () -> fetched.size() == 4);
    assertThat(fetched).containsExactly("1", "3", "4", "2");
  }

  @Test
  void retry_redelivers_with_a_higher_count_then_dead_letters_after_max_deliveries() {
    queue.declare(spec(3));
    queue.publish(name, new Message("flaky".getBytes(UTF_8), 2, Map.of("k", "v")));
    List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      deliveries.add(delivery);
      return Disposition.retry("smtp 451 try later");
    }));

    awaitUntil("dead-lettered", () -> !queue.deadLetters(name, 10).isEmpty());
    assertThat(deliveries).extracting(Delivery::deliveryCount).containsExactly(1, 2, 3);
    assertThat(deliveries).extracting(Delivery::redelivered).containsExactly(false, true, true);
    assertThat(deliveries)
        .extracting(Delivery::messageId)
        .containsOnly(deliveries.getFirst().messageId());
    DeadLetter dead = queue.deadLetters(name, 10).getFirst();
    assertThat(dead.reason()).contains("smtp 451 try later");
    assertThat(dead.deliveries()).isEqualTo(3);
    assertThat(dead.body()).isEqualTo("flaky".getBytes(UTF_8));
    assertThat(dead.priority()).isEqualTo(2);
    assertThat(dead.headers()).containsEntry("k", "v");
    assertThat(dead.messageId()).isEqualTo(deliveries.getFirst().messageId());
    assertThat(queue.depth(name)).isZero();
    awaitUntil("the dead letter counted", () -> deadLettersCounted("exhausted") == 1.0);
    assertThat(counted(QueueCounters.DELIVERIES, "kind", "first")).isEqualTo(1.0);
    assertThat(counted(QueueCounters.DELIVERIES, "kind", "redelivery")).isEqualTo(2.0);
    assertThat(counted(QueueCounters.RETRIES)).isEqualTo(2.0);
    assertThat(deadLettersCounted("rejected")).isZero();
  }

  @Test
  void reject_dead_letters_at_once_with_the_reason() throws Exception {
    queue.declare(spec(5));
    queue.publish(name, text("poison", 0));
    AtomicInteger handled = new AtomicInteger();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      handled.incrementAndGet();
      return Disposition.reject("unparseable body");
    }));

    awaitUntil("dead-lettered", () -> !queue.deadLetters(name, 10).isEmpty());
    DeadLetter dead = queue.deadLetters(name, 10).getFirst();
    assertThat(dead.reason()).contains("unparseable body");
    assertThat(dead.deliveries()).isEqualTo(1);
    Thread.sleep(300); // a window for a wrong second delivery to show: nothing to wait for
    assertThat(handled).hasValue(1);
    assertThat(queue.depth(name)).isZero();
    assertThat(deadLettersCounted("rejected")).isEqualTo(1.0);
    assertThat(deadLettersCounted("exhausted")).isZero();
    assertThat(counted(QueueCounters.RETRIES)).isZero();
  }

  @Test
  void a_requeued_dead_letter_is_delivered_afresh_and_a_dropped_one_is_gone() throws Exception {
    queue.declare(spec(5));
    queue.publishAll(
        name,
        List.of(new Message("fixable".getBytes(UTF_8), 3, Map.of("k", "v")), text("hopeless", 3)));
    AtomicBoolean fixed = new AtomicBoolean();
    BlockingQueue<Delivery> handled = new LinkedBlockingQueue<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      if (!fixed.get()) return Disposition.reject("not yet: " + text(delivery));
      handled.add(delivery);
      return Disposition.ACK;
    }));
    awaitUntil("both dead-lettered", () -> queue.deadLetters(name, 10).size() == 2);
    var letters = queue.deadLetters(name, 10);
    String fixable = letters.stream()
        .filter(letter -> text(letter).equals("fixable"))
        .findFirst()
        .orElseThrow()
        .messageId();
    String hopeless = letters.stream()
        .filter(letter -> text(letter).equals("hopeless"))
        .findFirst()
        .orElseThrow()
        .messageId();

    fixed.set(true);
    assertThat(queue.requeueDeadLetter(name, fixable)).isTrue();
    assertThat(queue.dropDeadLetter(name, hopeless)).isTrue();

    Delivery again = handled.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(again).isNotNull();
    assertThat(text(again)).isEqualTo("fixable");
    assertThat(again.deliveryCount()).as("its deliveries start over").isEqualTo(1);
    assertThat(again.priority()).isEqualTo(3);
    assertThat(again.headers()).containsEntry("k", "v");
    assertThat(queue.deadLetters(name, 10)).isEmpty();
    assertThat(queue.requeueDeadLetter(name, fixable)).as("already requeued").isFalse();
    assertThat(queue.dropDeadLetter(name, hopeless)).as("already dropped").isFalse();
    assertThat(queue.dropDeadLetter(name, "no-such-letter")).isFalse();
    // no letter has an id with a NUL (PostgreSQL cannot hold one): not there, never an outage
    assertThat(queue.dropDeadLetter(name, "no\u0000such")).isFalse();
    assertThat(queue.requeueDeadLetter(name, "no\u0000such")).isFalse();
    Thread.sleep(300); // a window for the dropped letter to come back: nothing to wait for
    assertThat(handled).as("the dropped letter is never delivered").isEmpty();
  }

  @Test
  void dead_letters_come_newest_first_and_limited() {
    queue.declare(spec(5));
    queue.publishAll(name, List.of(text("a", 5), text("b", 5), text("c", 5)));
    List<String> rejected = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      rejected.add(text(delivery));
      return Disposition.reject("no");
    }));

    awaitUntil("all dead", () -> queue.deadLetters(name, 10).size() == 3);
    assertThat(queue.deadLetters(name, 2))
        .extracting(dead -> new String(dead.body(), UTF_8))
        .containsExactly("c", "b");
    assertThat(rejected).contains("a", "b", "c");
  }

  @Test
  void handler_exception_counts_as_a_retry() {
    queue.declare(spec(3));
    queue.publish(name, text("once broken", 3));
    List<Integer> counts = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      counts.add(delivery.deliveryCount());
      if (delivery.deliveryCount() == 1) throw new IllegalStateException("template service down");
      return Disposition.ACK;
    }));

    awaitUntil("handled twice", () -> counts.size() == 2);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(counts).containsExactly(1, 2);
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  /**
   * An Error (a stack overflow on a body nested too deep, a failed assertion) is a failed delivery
   * like an exception: the message comes again, and the consumer that threw goes on consuming.
   */
  @Test
  void a_handler_that_dies_with_an_error_retries_and_its_consumer_goes_on() {
    queue.declare(spec(3));
    queue.publish(name, text("fatal once", 3));
    List<String> handled = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      handled.add(text(delivery) + "#" + delivery.deliveryCount());
      if (delivery.deliveryCount() == 1 && text(delivery).equals("fatal once"))
        throw new StackOverflowError("a body nested too deep");
      return Disposition.ACK;
    }));

    awaitUntil("handled again", () -> handled.contains("fatal once#2"));
    queue.publish(name, text("after", 3));
    awaitUntil("the consumer goes on", () -> handled.contains("after#1"));
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(handled).containsExactly("fatal once#1", "fatal once#2", "after#1");
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  @Test
  void a_batch_handler_that_dies_with_an_error_retries_the_batch_and_goes_on() {
    queue.declare(spec(3));
    queue.publishAll(name, List.of(text("x", 5), text("y", 5)));
    List<String> handled = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 1, 10, batch -> {
      batch.forEach(delivery -> handled.add(text(delivery) + "#" + delivery.deliveryCount()));
      if (batch.stream()
          .anyMatch(delivery -> delivery.deliveryCount() == 1 && !text(delivery).equals("after")))
        throw new AssertionError("an invariant broke after the commit");
      return BatchResult.ACK_ALL;
    }));

    awaitUntil("both handled again", () -> handled.containsAll(List.of("x#2", "y#2")));
    queue.publish(name, text("after", 5));
    awaitUntil("the consumer goes on", () -> handled.contains("after#1"));
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  @Test
  void messages_held_by_a_dead_consumer_are_redelivered_to_another_and_none_is_lost()
      throws Exception {
    queue.declare(spec(5));
    List<String> sent = IntStream.range(0, 6).mapToObj(i -> "job" + i).toList();
    queue.publishAll(name, sent.stream().map(body -> text(body, 5)).toList());

    WorkQueue doomed = opened(openQueue());
    List<String> takenByDoomed = new CopyOnWriteArrayList<>();
    doomed.subscribe(name, 1, sent.size(), delivery -> {
      takenByDoomed.add(text(delivery));
      releaseBlockedHandlers.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return Disposition.ACK; // too late: the process is dead by then
    });
    awaitUntil(
        "the doomed consumer holds every message", () -> takenByDoomed.size() == sent.size());
    crash(doomed);

    Map<String, Delivery> survivors = new ConcurrentHashMap<>();
    AtomicInteger duplicates = new AtomicInteger();
    subscribed(queue.subscribe(name, 2, 3, delivery -> {
      if (survivors.putIfAbsent(text(delivery), delivery) != null) duplicates.incrementAndGet();
      return Disposition.ACK;
    }));
    awaitUntil("every message redelivered", () -> survivors.size() == sent.size());
    releaseBlockedHandlers.countDown();

    assertThat(survivors.keySet()).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(survivors.values()).allSatisfy(delivery -> {
      assertThat(delivery.redelivered()).isTrue();
      assertThat(delivery.deliveryCount()).isEqualTo(2);
    });
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    Thread.sleep(visibilityTimeout().toMillis() + 300);
    assertThat(duplicates)
        .as("late acks of the dead consumer must not bring messages back")
        .hasValue(0);
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  @Test
  void many_consumers_process_every_message_exactly_once_within_the_prefetch_bound() {
    queue.declare(spec(5));
    int count = 400;
    int consumers = 4;
    int prefetch = 5;
    List<String> sent = IntStream.range(0, count).mapToObj(i -> "n" + i).toList();
    for (int from = 0; from < count; from += 100) {
      queue.publishAll(
          name,
          sent.subList(from, from + 100).stream()
              .map(body -> text(body, body.hashCode() & 7))
              .toList());
    }
    Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    subscribed(queue.subscribe(name, consumers, prefetch, delivery -> {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        Thread.sleep(2);
        seen.computeIfAbsent(text(delivery), key -> new AtomicInteger()).incrementAndGet();
        return Disposition.ACK;
      } finally {
        inFlight.decrementAndGet();
      }
    }));

    awaitUntil("all processed", () -> seen.size() == count);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(seen.values()).allSatisfy(times -> assertThat(times).hasValue(1));
    assertThat(maxInFlight.get()).isBetween(2, consumers * prefetch);
  }

  @Test
  void consumers_hold_no_more_than_their_prefetch_and_depth_counts_the_rest() throws Exception {
    queue.declare(spec(5));
    queue.publishAll(
        name, IntStream.range(0, 20).mapToObj(i -> text("p" + i, 3)).toList());
    assertThat(queue.depth(name)).isEqualTo(20);

    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    subscribed(queue.subscribe(name, 2, 3, delivery -> {
      inFlight.incrementAndGet();
      releaseBlockedHandlers.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      inFlight.decrementAndGet();
      done.incrementAndGet();
      return Disposition.ACK;
    }));

    awaitUntil("both consumers full", () -> inFlight.get() == 6);
    Thread.sleep(500); // a window for a consumer to take more than its prefetch
    assertThat(inFlight).as("in flight with 2 consumers x prefetch 3").hasValue(6);
    awaitUntil("depth counts only waiting messages", () -> queue.depth(name) == 14);

    releaseBlockedHandlers.countDown();
    awaitUntil("all done", () -> done.get() == 20);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
  }

  @Test
  void closing_a_subscription_waits_for_handlers_in_progress_and_settles_them() throws Exception {
    queue.declare(spec(5));
    queue.publish(name, text("slow", 1));
    var started = new CountDownLatch(1);
    AtomicBoolean finished = new AtomicBoolean();
    Subscription subscription = queue.subscribe(name, 1, 1, delivery -> {
      started.countDown();
      Thread.sleep(400);
      finished.set(true);
      return Disposition.ACK;
    });
    assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

    subscription.close();

    assertThat(finished).as("handler finished before close returned").isTrue();
    assertThat(queue.depth(name)).isZero();
    BlockingQueue<Delivery> again = new LinkedBlockingQueue<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      again.add(delivery);
      return Disposition.ACK;
    }));
    assertThat(again.poll(visibilityTimeout().toMillis() + 700, TimeUnit.MILLISECONDS))
        .as("the acked message comes back")
        .isNull();
  }

  @Test
  void publishing_to_an_undeclared_queue_is_a_clear_error() {
    String undeclared = name + "-never-declared";
    assertThatThrownBy(() -> queue.publish(undeclared, text("lost?", 0)))
        .isInstanceOf(UnknownQueueException.class)
        .hasMessageContaining(undeclared)
        .hasMessageContaining("declare");
  }

  @Test
  void nodes_declaring_the_same_queue_share_its_messages_and_limits() throws Exception {
    queue.declare(spec(2));
    WorkQueue otherNode = opened(openQueue());
    otherNode.declare(spec(2));
    otherNode.publish(name, text("from another node", 4));
    BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
    subscribed(otherNode.subscribe(name, 1, 1, delivery -> {
      received.add(delivery);
      return Disposition.retry("again");
    }));
    awaitUntil(
        "dead-lettered by the declared max deliveries of 2",
        () -> !otherNode.deadLetters(name, 5).isEmpty());
    assertThat(received).hasSize(2);
  }

  @Test
  void declaring_twice_is_harmless() {
    queue.declare(spec(3));
    queue.publish(name, text("kept", 1));
    queue.declare(spec(3));
    assertThat(queue.depth(name)).isEqualTo(1);
  }

  @Test
  void publishers_block_rather_than_buffer_while_the_backend_does_not_confirm() throws Exception {
    queue.declare(spec(3));
    int publishers = publishBufferBound() + 4;
    AtomicInteger returned = new AtomicInteger();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> threads = new ArrayList<>();
    AutoCloseable stall = stallPublishing(queue);
    try {
      for (int i = 0; i < publishers; i++) {
        String body = "bp" + i;
        threads.add(Thread.ofVirtual().start(() -> {
          try {
            queue.publish(name, text(body, 1));
            returned.incrementAndGet();
          } catch (RuntimeException e) {
            failures.add(e);
          }
        }));
      }
      Thread.sleep(700);
      assertThat(returned).as("publishes returned without a confirm").hasValue(0);
      assertThat(queue.depth(name))
          .as("messages buffered past the cap")
          .isLessThanOrEqualTo(publishBufferBound());
    } finally {
      stall.close();
    }
    for (Thread thread : threads) {
      if (!thread.join(WAIT))
        fail("a publisher is still blocked " + WAIT + " after the backend recovered");
    }
    assertThat(failures).isEmpty();
    assertThat(returned).hasValue(publishers);
    awaitUntil("every message arrived", () -> queue.depth(name) == publishers);
  }

  @Test
  void batches_hold_at_most_the_batch_size_and_every_message_is_handled_once() {
    queue.declare(spec(3));
    List<String> sent = IntStream.range(0, 95).mapToObj(i -> "b" + i).toList();
    queue.publishAll(name, sent.stream().map(body -> text(body, 4)).toList());
    Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    List<Integer> sizes = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 2, 20, batch -> {
      sizes.add(batch.size());
      for (Delivery delivery : batch)
        seen.computeIfAbsent(text(delivery), key -> new AtomicInteger()).incrementAndGet();
      return BatchResult.ACK_ALL;
    }));

    awaitUntil("all handled", () -> seen.size() == sent.size());
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(seen.values()).allSatisfy(times -> assertThat(times).hasValue(1));
    assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(1, 20));
    assertThat(sizes)
        .as("messages waiting are taken together")
        .anySatisfy(size -> assertThat(size).isGreaterThan(1));
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  @Test
  void a_batch_settles_each_message_its_own_way() {
    queue.declare(spec(3));
    queue.publishAll(name, List.of(text("fine", 5), text("poison", 5), text("flaky", 5)));
    List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 1, 10, batch -> {
      deliveries.addAll(batch);
      Map<String, Disposition> exceptions = new HashMap<>();
      for (Delivery delivery : batch) {
        switch (text(delivery)) {
          case "poison" -> exceptions.put(delivery.messageId(), Disposition.reject("bad body"));
          case "flaky" -> {
            if (delivery.deliveryCount() == 1)
              exceptions.put(delivery.messageId(), Disposition.retry("provider busy"));
          }
          default -> {}
        }
      }
      return BatchResult.except(exceptions);
    }));

    awaitUntil(
        "flaky handled twice",
        () -> deliveries.stream().filter(d -> text(d).equals("flaky")).count() == 2);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(deliveries)
        .extracting(WorkQueueContract::text)
        .containsOnly("fine", "poison", "flaky");
    assertThat(deliveries.stream().filter(d -> text(d).equals("fine"))).hasSize(1);
    assertThat(deliveries.stream().filter(d -> text(d).equals("poison"))).hasSize(1);
    List<DeadLetter> dead = queue.deadLetters(name, 10);
    assertThat(dead).singleElement().satisfies(letter -> {
      assertThat(new String(letter.body(), UTF_8)).isEqualTo("poison");
      assertThat(letter.reason()).contains("bad body");
    });
  }

  @Test
  void a_batch_handler_that_fails_transiently_retries_the_whole_batch() {
    queue.declare(spec(3));
    queue.publishAll(name, List.of(text("x", 5), text("y", 5)));
    List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 1, 10, batch -> {
      deliveries.addAll(batch);
      if (batch.stream().anyMatch(delivery -> delivery.deliveryCount() == 1))
        throw new SQLTransientConnectionException(
            "Connection is not available, request timed out after 30000ms");
      return BatchResult.ACK_ALL;
    }));

    awaitUntil(
        "both retried",
        () -> deliveries.stream().filter(d -> d.deliveryCount() == 2).count() == 2);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(deliveries).extracting(Delivery::deliveryCount).containsOnly(1, 2);
    assertThat(queue.deadLetters(name, 10)).isEmpty();
    assertThat(poisonIsolated()).isZero();
    assertThat(deadLettersCounted("rejected")).isZero();
  }

  @Test
  void a_serialization_failure_or_lost_connection_is_retried_not_dead_lettered() {
    queue.declare(spec(3));
    queue.publishAll(name, List.of(text("a", 5), text("b", 5), text("c", 5)));
    List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 1, 10, batch -> {
      deliveries.addAll(batch);
      for (Delivery delivery : batch) {
        if (delivery.deliveryCount() == 1 && text(delivery).equals("b"))
          throw new IllegalStateException(
              "statement failed", new SQLException("could not serialize access", "40001"));
        if (delivery.deliveryCount() == 1 && text(delivery).equals("c"))
          throw new IllegalStateException(
              "statement failed", new SQLException("connection lost", "08006"));
      }
      return BatchResult.ACK_ALL;
    }));

    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    awaitUntil(
        "b and c handled again",
        () -> deliveries.stream()
            .filter(d -> d.deliveryCount() == 2)
            .map(WorkQueueContract::text)
            .toList()
            .containsAll(List.of("b", "c")));
    assertThat(queue.deadLetters(name, 10)).isEmpty();
    assertThat(poisonIsolated()).isZero();
    assertThat(deadLettersCounted("rejected")).isZero();
  }

  @Test
  void
      a_batch_handler_that_throws_for_one_message_dead_letters_it_alone_and_acknowledges_the_rest() {
    queue.declare(spec(3));
    List<Message> messages = new ArrayList<>();
    for (int i = 0; i < 40; i++) messages.add(text(i == 23 ? "poison" : "good-" + i, 5));
    queue.publishAll(name, messages);
    List<String> applied = new CopyOnWriteArrayList<>();
    List<Delivery> poisonDeliveries = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 1, 40, batch -> {
      for (Delivery delivery : batch) {
        if (text(delivery).equals("poison")) {
          poisonDeliveries.add(delivery);
          throw new IllegalArgumentException("timestamp out of range: +300000-01-01T00:00:00Z");
        }
      }
      batch.forEach(delivery -> applied.add(text(delivery)));
      return BatchResult.ACK_ALL;
    }));

    awaitUntil("one dead letter", () -> !queue.deadLetters(name, 10).isEmpty());
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    awaitUntil("39 applied", () -> applied.size() >= 39);
    assertThat(applied)
        .doesNotContain("poison")
        .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 40)
            .filter(i -> i != 23)
            .mapToObj(i -> "good-" + i)
            .toList());
    assertThat(poisonDeliveries).extracting(Delivery::deliveryCount).containsOnly(1);
    assertThat(queue.deadLetters(name, 10)).singleElement().satisfies(letter -> {
      assertThat(text(letter)).isEqualTo("poison");
      assertThat(letter.reason()).contains("timestamp out of range");
      assertThat(letter.deliveries()).isEqualTo(1);
    });
    assertThat(poisonIsolated()).isEqualTo(1.0);
    awaitUntil("the dead letter counted", () -> deadLettersCounted("rejected") == 1.0);
  }

  @Test
  void a_failed_message_waits_its_backoff_before_each_redelivery() {
    var backoff = new RetryPolicy(Duration.ofMillis(400), 2, Duration.ofSeconds(5));
    queue.declare(spec(3).withRetry(backoff));
    queue.publish(name, text("smtp down", 3));
    List<Long> deliveredAt = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      deliveredAt.add(System.nanoTime());
      return Disposition.retry("421 try later");
    }));

    awaitUntil(
        "dead-lettered after 3 deliveries", () -> !queue.deadLetters(name, 10).isEmpty());
    assertThat(deliveredAt).hasSize(3);
    long firstGap = TimeUnit.NANOSECONDS.toMillis(deliveredAt.get(1) - deliveredAt.get(0));
    long secondGap = TimeUnit.NANOSECONDS.toMillis(deliveredAt.get(2) - deliveredAt.get(1));
    assertThat(firstGap).as("wait after the first failure").isGreaterThanOrEqualTo(380);
    assertThat(secondGap).as("wait after the second failure, doubled").isGreaterThanOrEqualTo(780);
    assertThat(queue.deadLetters(name, 10).getFirst().deliveries()).isEqualTo(3);
  }

  @Test
  void a_waiting_retry_does_not_hold_up_other_messages() throws Exception {
    var backoff = new RetryPolicy(Duration.ofSeconds(3), 2, Duration.ofSeconds(10));
    queue.declare(spec(3).withRetry(backoff));
    queue.publish(name, text("failing", 9));
    BlockingQueue<String> handled = new LinkedBlockingQueue<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      handled.add(text(delivery) + "#" + delivery.deliveryCount());
      return text(delivery).equals("failing") ? Disposition.retry("later") : Disposition.ACK;
    }));
    assertThat(handled.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("failing#1");

    queue.publish(name, text("next", 1));

    assertThat(handled.poll(2, TimeUnit.SECONDS))
        .as("a lower-priority message goes ahead while the failed one waits its backoff")
        .isEqualTo("next#1");
    assertThat(handled.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("failing#2");
  }

  @Test
  void triggered_work_overtakes_bulk_work_without_starving_it() {
    queue.declare(spec(3).withOldestEvery(4));
    queue.publishAll(
        name, IntStream.range(0, 20).mapToObj(i -> text("bulk" + i, 1)).toList());
    queue.publishAll(
        name, IntStream.range(0, 40).mapToObj(i -> text("trig" + i, 8)).toList());

    List<String> first = consumeInOrder(20).subList(0, 20);

    long bulk = first.stream().filter(body -> body.startsWith("bulk")).count();
    assertThat(bulk)
        .as("one in every 4 deliveries goes to the oldest message: %s", first)
        .isBetween(4L, 6L);
    assertThat(first.stream().filter(body -> body.startsWith("bulk")))
        .as("the oldest first among the bulk work")
        .containsExactly(
            IntStream.range(0, (int) bulk).mapToObj(i -> "bulk" + i).toArray(String[]::new));
    assertThat(first.stream().filter(body -> body.startsWith("trig")))
        .as("triggered work in its own order")
        .containsExactly(
            IntStream.range(0, 20 - (int) bulk).mapToObj(i -> "trig" + i).toArray(String[]::new));
  }

  @Test
  void a_handler_past_its_time_limit_is_interrupted_and_its_message_redelivered() throws Exception {
    queue.declare(spec(3).withHandlerTimeout(Duration.ofMillis(600)));
    queue.publish(name, text("hangs once", 5));
    List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    AtomicBoolean interrupted = new AtomicBoolean();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostRunning = new AtomicInteger();
    subscribed(queue.subscribe(name, 2, 1, delivery -> {
      deliveries.add(delivery);
      mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        if (delivery.deliveryCount() == 1) {
          try {
            Thread.sleep(WAIT.toMillis());
          } catch (InterruptedException e) {
            interrupted.set(true);
            throw e;
          }
        }
        return Disposition.ACK;
      } finally {
        running.decrementAndGet();
      }
    }));

    awaitUntil("redelivered after the time limit", () -> deliveries.size() == 2);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(interrupted).as("the hung handler was interrupted").isTrue();
    assertThat(deliveries.get(1).deliveryCount()).isEqualTo(2);
    assertThat(mostRunning).as("never two handlers on one message").hasValue(1);
    Thread.sleep(visibilityTimeout().toMillis() + 300);
    assertThat(deliveries).hasSize(2);
  }

  @Test
  void a_live_handler_slower_than_the_visibility_timeout_keeps_its_message() throws Exception {
    queue.declare(spec(3));
    queue.publish(name, text("slow but alive", 5));
    List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 2, 1, delivery -> {
      deliveries.add(delivery);
      Thread.sleep(visibilityTimeout().toMillis() * 4);
      return Disposition.ACK;
    }));

    awaitUntil("queue drained", () -> queue.depth(name) == 0 && !deliveries.isEmpty());
    Thread.sleep(visibilityTimeout().toMillis() * 5);
    assertThat(deliveries)
        .as("delivered once, never taken from its live handler")
        .hasSize(1);
  }

  @Test
  void a_message_whose_consumer_keeps_crashing_is_dead_lettered_after_max_deliveries()
      throws Exception {
    queue.declare(spec(3));
    queue.publish(name, text("kills its consumer", 5));
    for (int attempt = 1; attempt <= 3; attempt++) {
      WorkQueue doomed = opened(openQueue());
      BlockingQueue<Delivery> taken = new LinkedBlockingQueue<>();
      doomed.subscribe(name, 1, 1, delivery -> {
        taken.add(delivery);
        releaseBlockedHandlers.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return Disposition.ACK; // too late: the process is dead by then
      });
      Delivery delivery = taken.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(delivery).as("delivery %d", attempt).isNotNull();
      assertThat(delivery.deliveryCount()).isEqualTo(attempt);
      crash(doomed);
    }

    BlockingQueue<Delivery> afterwards = new LinkedBlockingQueue<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      afterwards.add(delivery);
      return Disposition.ACK;
    }));
    awaitUntil("dead-lettered", () -> !queue.deadLetters(name, 10).isEmpty());
    assertThat(afterwards.poll(visibilityTimeout().toMillis() + 500, TimeUnit.MILLISECONDS))
        .as("a fourth delivery")
        .isNull();
    DeadLetter dead = queue.deadLetters(name, 10).getFirst();
    assertThat(dead.deliveries()).isEqualTo(3);
    assertThat(new String(dead.body(), UTF_8)).isEqualTo("kills its consumer");
    awaitUntil("the dead letter counted", () -> deadLettersCounted("consumer_lost") == 1.0);
    assertThat(deadLettersCounted("exhausted") + deadLettersCounted("rejected")).isZero();
  }

  @Test
  void the_oldest_message_age_grows_while_it_waits_and_is_zero_once_the_queue_is_empty()
      throws Exception {
    queue.declare(spec(3));
    CountDownLatch holding = new CountDownLatch(1);
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      if (text(delivery).equals("held")) {
        holding.countDown();
        releaseBlockedHandlers.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      }
      return Disposition.ACK;
    }));
    assertThat(queue.oldestAge(name)).contains(Duration.ZERO);

    queue.publish(name, text("held", 5));
    assertThat(holding.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    queue.publish(name, text("waiting", 5));
    Thread.sleep(1_500); // the waiting message ages past a second: the time is what is measured
    assertThat(queue.oldestAge(name))
        .hasValueSatisfying(age -> assertThat(age).isBetween(Duration.ofSeconds(1), WAIT));

    releaseBlockedHandlers.countDown();
    awaitUntil(
        "the queue empty and its age zero",
        () -> queue.oldestAge(name).orElseThrow().isZero());
  }

  record Receipt(String messageId, String status, long at) {}

  @Test
  void a_topic_carries_records_and_dead_letters_what_its_codec_cannot_read() {
    var topic = new Topic<>(spec(3), Codec.json(Receipt.class));
    queue.declare(topic.spec());
    topic.publishAll(
        queue, List.of(new Receipt("m-1", "delivered", 1L), new Receipt("m-2", "opened", 2L)), 4);
    queue.publish(name, text("{not json", 4));
    List<Receipt> received = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribeBatches(name, 1, 10, topic.batchHandler(batch -> {
      batch.forEach(one -> received.add(one.value()));
      return BatchResult.ACK_ALL;
    })));

    awaitUntil("records received", () -> received.size() == 2);
    awaitUntil(
        "the unreadable body dead-lettered", () -> !queue.deadLetters(name, 10).isEmpty());
    assertThat(received)
        .containsExactlyInAnyOrder(
            new Receipt("m-1", "delivered", 1L), new Receipt("m-2", "opened", 2L));
    assertThat(queue.deadLetters(name, 10).getFirst().reason()).contains("not a Receipt");
  }

  /** When a delayed message of this suite is due: soon, so that the suite stays fast. */
  private static Instant inSeconds(long seconds) {
    return Instant.now().plusSeconds(seconds);
  }

  /** A delivery and when its handler got it, by this JVM's clock (the machine's servers share it). */
  record Received(Delivery delivery, Instant at) {}

  private BlockingQueue<Received> receiveAll(WorkQueue from, Disposition disposition) {
    BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    subscribed(from.subscribe(name, 1, 1, delivery -> {
      received.add(new Received(delivery, Instant.now()));
      return disposition;
    }));
    return received;
  }

  private Timer lateness() {
    Timer timer =
        metrics.find(QueueCounters.DELAYED_LATENESS).tag("queue", name).timer();
    assertThat(timer).as("the lateness of queue %s recorded", name).isNotNull();
    return timer;
  }

  /** The slack the suite allows past a not-before: the adapters' own is a second at most. */
  private static final Duration LATE_AT_MOST = Duration.ofSeconds(3);

  @Test
  void a_delayed_message_is_not_delivered_before_its_instant_and_is_delivered_after_it()
      throws Exception {
    queue.declare(spec(3));
    Instant due = inSeconds(2);
    queue.publish(
        name, new Message("later".getBytes(UTF_8), 6, Map.of("step", "2")).notBefore(due));
    assertThat(queue.depth(name))
        .as("a delayed message is not waiting to be delivered")
        .isZero();
    assertThat(queue.delayed(name))
        .satisfiesAnyOf(
            count -> assertThat(count).isEmpty(), count -> assertThat(count).hasValue(1));
    List<Received> received = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      received.add(new Received(delivery, Instant.now()));
      return delivery.deliveryCount() == 1 ? Disposition.retry("once more") : Disposition.ACK;
    }));

    Thread.sleep(Math.max(0, Duration.between(Instant.now(), due).toMillis() - 200)); // not yet
    assertThat(received).as("delivered before its not-before %s", due).isEmpty();
    awaitUntil("delivered, and again after its retry", () -> received.size() == 2);

    Received first = received.getFirst();
    assertThat(first.at()).as("first delivered at or after %s", due).isAfterOrEqualTo(due);
    assertThat(Duration.between(due, first.at())).isLessThan(LATE_AT_MOST);
    assertThat(text(first.delivery())).isEqualTo("later");
    assertThat(first.delivery().priority()).isEqualTo(6);
    assertThat(first.delivery().headers()).isEqualTo(Map.of("step", "2"));
    assertThat(received).extracting(r -> r.delivery().deliveryCount()).containsExactly(1, 2);
    awaitUntil("queue drained", () -> queue.depth(name) == 0);
    assertThat(queue.delayed(name))
        .satisfiesAnyOf(
            count -> assertThat(count).isEmpty(), count -> assertThat(count).hasValue(0));
    assertThat(counted(QueueCounters.DELAYED_PUBLISHED)).isEqualTo(1.0);
    assertThat(lateness().count())
        .as("lateness measured on the first delivery only")
        .isEqualTo(1);
    assertThat(lateness().max(TimeUnit.MILLISECONDS)).isLessThan((double) LATE_AT_MOST.toMillis());
  }

  /**
   * How late this adapter delivers a delayed message to an idle consumer at most, on a machine that
   * is not overloaded: its own granularity and a margin.
   */
  protected Duration lateAtMost() {
    return LATE_AT_MOST;
  }

  @Test
  void delayed_messages_reach_an_idle_consumer_soon_after_their_instant() {
    queue.declare(spec(3));
    Instant start = Instant.now();
    Map<String, Instant> due = new ConcurrentHashMap<>();
    List<Message> messages = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      // spread over fractions of a second, so that an adapter that rounds shows what rounding costs
      Instant at = start.plusMillis(1_000 + i * 173L);
      due.put("d" + i, at);
      messages.add(text("d" + i, i % 10).notBefore(at));
    }
    queue.publishAll(name, messages);
    Map<String, Duration> late = new ConcurrentHashMap<>();
    subscribed(queue.subscribe(name, 2, 4, delivery -> {
      late.put(text(delivery), Duration.between(due.get(text(delivery)), Instant.now()));
      return Disposition.ACK;
    }));

    awaitUntil("all delivered", () -> late.size() == due.size());
    List<Duration> sorted = late.values().stream().sorted().toList();
    System.out.printf(
        "delayed delivery lateness on %s: min %d ms, median %d ms, max %d ms%n",
        getClass().getSimpleName(),
        sorted.getFirst().toMillis(),
        sorted.get(sorted.size() / 2).toMillis(),
        sorted.getLast().toMillis());
    assertThat(sorted.getFirst().isNegative())
        .as("one delivered before its instant: %s", late)
        .isFalse();
    assertThat(sorted.getLast()).as("lateness: %s", late).isLessThan(lateAtMost());
  }

  @Test
  void a_delayed_message_does_not_hold_up_an_immediate_one() throws Exception {
    queue.declare(spec(3));
    Instant due = inSeconds(3);
    queue.publish(name, text("urgent but later", 9).notBefore(due));
    queue.publish(name, text("bulk now", 0));
    BlockingQueue<Received> received = receiveAll(queue, Disposition.ACK);

    Received first = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(first).isNotNull();
    assertThat(text(first.delivery())).isEqualTo("bulk now");
    assertThat(first.at())
        .as("the immediate one did not wait for the delayed one")
        .isBefore(due);
    Received second = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(second).isNotNull();
    assertThat(text(second.delivery())).isEqualTo("urgent but later");
    assertThat(second.at()).isAfterOrEqualTo(due);
  }

  @Test
  void delayed_messages_once_due_go_by_priority_then_publish_order_with_the_others() {
    queue.declare(spec(3));
    Instant due = inSeconds(1);
    queue.publishAll(
        name,
        List.of(
            text("low-a", 1).notBefore(due),
            text("high", 8).notBefore(due),
            text("low-b", 1).notBefore(due)));
    queue.publish(name, text("mid", 4));
    // consumed once all are due, so that the order is the queue's, not that of their arrival
    awaitUntil("all due and waiting", () -> queue.depth(name) == 4);
    assertThat(Instant.now()).isAfterOrEqualTo(due);

    assertThat(consumeInOrder(4)).containsExactly("high", "mid", "low-a", "low-b");
  }

  @Test
  void publish_all_takes_delayed_and_immediate_messages_together() throws Exception {
    queue.declare(spec(3));
    Instant due = inSeconds(2);
    queue.publishAll(
        name,
        List.of(
            text("now-1", 3),
            text("later-1", 3).notBefore(due),
            text("now-2", 3),
            text("later-2", 5).notBefore(due.plusSeconds(1))));
    BlockingQueue<Received> received = receiveAll(queue, Disposition.ACK);

    List<Received> order = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Received next = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(next).as("delivery %d", i + 1).isNotNull();
      order.add(next);
    }
    assertThat(order)
        .extracting(r -> text(r.delivery()))
        .containsExactly("now-1", "now-2", "later-1", "later-2");
    assertThat(order.get(1).at()).isBefore(due);
    assertThat(order.get(2).at()).isAfterOrEqualTo(due);
    assertThat(order.get(3).at()).isAfterOrEqualTo(due.plusSeconds(1));
    assertThat(counted(QueueCounters.DELAYED_PUBLISHED)).isEqualTo(2.0);
  }

  @Test
  void a_not_before_in_the_past_is_delivered_at_once() throws Exception {
    queue.declare(spec(3));
    BlockingQueue<Received> received = receiveAll(queue, Disposition.ACK);
    Instant published = Instant.now();
    queue.publish(name, text("overdue", 2).notBefore(published.minus(Duration.ofHours(1))));

    Received delivered = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(delivered).isNotNull();
    assertThat(text(delivered.delivery())).isEqualTo("overdue");
    assertThat(Duration.between(published, delivered.at()))
        .as("as soon as a message without a not-before")
        .isLessThan(Duration.ofMillis(900));
    assertThat(counted(QueueCounters.DELAYED_PUBLISHED)).isZero();
  }

  @Test
  void a_delayed_message_survives_a_restart_of_the_node_that_published_it() throws Exception {
    WorkQueue before = openQueue(); // closed below, not by the clean-up
    Instant due;
    try {
      before.declare(spec(3));
      due = inSeconds(2);
      before.publish(name, text("after the restart", 7).notBefore(due));
    } finally {
      before.close();
    }
    WorkQueue after = opened(openQueue());
    BlockingQueue<Received> received = receiveAll(after, Disposition.ACK);

    Thread.sleep(Math.max(0, Duration.between(Instant.now(), due).toMillis() - 200)); // not yet
    assertThat(received).as("delivered before its not-before").isEmpty();
    Received delivered = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(delivered).isNotNull();
    assertThat(text(delivered.delivery())).isEqualTo("after the restart");
    assertThat(delivered.at()).isAfterOrEqualTo(due);
    assertThat(Duration.between(due, delivered.at())).isLessThan(LATE_AT_MOST);
  }

  @Test
  void a_not_before_beyond_the_longest_delay_is_refused_and_nothing_is_published() {
    queue.declare(spec(3));
    Instant tooFar = Instant.now().plus(WorkQueue.MAX_DELAY).plus(Duration.ofDays(1));

    assertThatThrownBy(() ->
            queue.publishAll(name, List.of(text("fine", 1), text("too far", 1).notBefore(tooFar))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longest delay");
    assertThat(queue.depth(name)).isZero();
    assertThat(queue.delayed(name))
        .satisfiesAnyOf(
            count -> assertThat(count).isEmpty(), count -> assertThat(count).hasValue(0));
  }

  @Test
  void a_deleted_queue_takes_its_messages_and_dead_letters_with_it() {
    queue.declare(spec(3));
    queue.publishAll(name, List.of(text("a", 1), text("b", 2)));

    queue.delete(name);
    queue.delete(name);

    assertThatThrownBy(() -> queue.publish(name, text("after", 1)))
        .isInstanceOf(UnknownQueueException.class);
    queue.declare(spec(3));
    assertThat(queue.depth(name)).isZero();
    assertThat(queue.deadLetters(name, 10)).isEmpty();
  }

  private List<String> consumeInOrder(int expected) {
    List<String> order = new CopyOnWriteArrayList<>();
    subscribed(queue.subscribe(name, 1, 1, delivery -> {
      order.add(text(delivery));
      return Disposition.ACK;
    }));
    awaitUntil(expected + " deliveries", () -> order.size() >= expected);
    return List.copyOf(order);
  }

  protected static void awaitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) fail("not within " + WAIT + ": " + what);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for " + what);
      }
    }
  }
}
