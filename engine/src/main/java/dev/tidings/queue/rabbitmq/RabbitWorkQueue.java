package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.client.impl.recovery.RecordedBinding;
import com.rabbitmq.client.impl.recovery.RecordedExchange;
import com.rabbitmq.client.impl.recovery.RecordedQueue;
import com.rabbitmq.client.impl.recovery.TopologyRecoveryFilter;
import dev.tidings.queue.BatchHandler;
import dev.tidings.queue.DeadLetter;
import dev.tidings.queue.Message;
import dev.tidings.queue.MessageHandler;
import dev.tidings.queue.PoisonIsolation;
import dev.tidings.queue.QueueCounters;
import dev.tidings.queue.QueueSpec;
import dev.tidings.queue.QueueUnavailableException;
import dev.tidings.queue.RetryPolicy;
import dev.tidings.queue.Subscription;
import dev.tidings.queue.UnknownQueueException;
import dev.tidings.queue.WorkQueue;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work queues on RabbitMQ (3.10 and later), laid out as {@link RabbitLayout} describes: a durable
 * classic or quorum queue per priority ({@link RabbitQueueOptions#queueType()}), delay queues for retry backoff, a dead-letter stream, and the {@link DelayLadder} for delayed messages. Persistent
 * messages, publisher confirms with {@code mandatory}, manual acks, automatic connection recovery.
 * Publishing and consuming use separate connections, so that a broker blocking publishers (a memory
 * or disk alarm) does not stall the acks of consumers.
 *
 * <p>Deliveries are counted by Tidings ({@link Settlement}). A retry publishes a copy (to its lane,
 * or to the delay queue of its backoff) and then acks the original, both confirmed in that order, so a
 * crash in between can only duplicate it.
 *
 * <p>The URL may name several nodes of one cluster ({@link AmqpAddresses}): each connection goes to
 * one of them, and recovers on any of them.
 *
 * <p>A node that did not declare a queue can still use it: it finds the lanes by looking them up, and
 * takes max deliveries and the retry policy from the declaring publisher's stamp on each message.
 */
public final class RabbitWorkQueue implements WorkQueue {
  private static final Logger log = LoggerFactory.getLogger(RabbitWorkQueue.class);
  /** How long a lane expected to deliver holds lower lanes back (see {@link LaneBuffer}). */
  private static final Duration REFILL_WAIT = Duration.ofMillis(50);
  /**
   * The same for quorum queues: a settle reaches the queue through its Raft log before the next
   * message is sent, so the next one takes a few round trips more, longer on a busy cluster.
   */
  private static final Duration QUORUM_REFILL_WAIT = Duration.ofMillis(200);

  /** Gauge: the delayed messages of every queue of the virtual host, on the ladder. */
  static final String DELAY_LADDER_WAITING = "tidings_queue_delay_ladder_waiting";

  private final Connection publishing;
  private final Connection consuming;
  private final ConfirmingPublisher publisher;
  private final InstantSource clock;
  private final String description;
  private final RabbitQueueType queueType;
  private final Settlement settlement;
  private final ScheduledExecutorService timer;
  private final TimeLimit timeLimit;
  private final Map<String, QueueSpec> declared = new ConcurrentHashMap<>();
  private final Map<String, RabbitLayout> layouts = new ConcurrentHashMap<>();
  private final Set<RabbitSubscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final MeterRegistry metrics;
  private final QueueCounters counters;
  private final DelayLadder ladder;
  /** Whether this node declared the delay ladder; cleared when a delayed publish fails, to declare it again. */
  private volatile boolean ladderDeclared;
  /** Queues whose lanes this node bound to the ladder's end. */
  private final Set<String> boundToLadder = ConcurrentHashMap.newKeySet();

  private final LaneAges ages = new LaneAges();
  /** Queues this node has consumed, since when: only those can it tell the age of. */
  private final Map<String, Instant> consumedSince = new ConcurrentHashMap<>();

  private RabbitWorkQueue(
      Connection publishing,
      Connection consuming,
      RabbitQueueOptions options,
      InstantSource clock,
      String description,
      MeterRegistry metrics)
      throws IOException {
    this.metrics = metrics;
    this.counters = new QueueCounters(metrics);
    this.publishing = publishing;
    this.consuming = consuming;
    this.clock = clock;
    this.description = description;
    this.queueType = options.queueType();
    this.ladder = new DelayLadder(queueType);
    if (metrics.find(DELAY_LADDER_WAITING).gauge() == null) {
      // one per registry: the ladder is the broker's, whichever client asks (tests share a
      // registry)
      Gauge.builder(DELAY_LADDER_WAITING, this, RabbitWorkQueue::ladderWaiting)
          .description("Delayed messages of every queue waiting on the RabbitMQ delay ladder")
          .register(metrics);
    }
    this.publisher = new ConfirmingPublisher(publishing, options);
    this.settlement = new Settlement(clock);
    this.timer = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().daemon().name("tidings-handler-time-limit").factory());
    this.timeLimit = new TimeLimit(timer);
  }

  /** With the default options and the system clock, counting in {@code metrics}. */
  public static RabbitWorkQueue connect(URI amqpUri, MeterRegistry metrics) {
    return connect(amqpUri, RabbitQueueOptions.defaults(), InstantSource.system(), metrics);
  }

  /**
   * Connects to {@code amqpUri} ({@code amqp://user:password@host:port/vhost}, or several nodes as
   * {@code host1:port1,host2:port2}); {@code clock} stamps messages and dead letters, and
   * {@code metrics} counts what batch consumers give up on ({@link PoisonIsolation}).
   */
  public static RabbitWorkQueue connect(
      URI amqpUri, RabbitQueueOptions options, InstantSource clock, MeterRegistry metrics) {
    AmqpAddresses addresses;
    try {
      addresses = AmqpAddresses.parse(amqpUri);
    } catch (IllegalArgumentException e) {
      throw new QueueUnavailableException("not a RabbitMQ URL: " + e.getMessage(), e);
    }
    String description = addresses.describe();
    var factory = new ConnectionFactory();
    Connection publishing = null;
    Connection consuming = null;
    try {
      factory.setUri(addresses.firstNode());
      factory.setAutomaticRecoveryEnabled(true);
      factory.setTopologyRecoveryEnabled(true);
      // Recovery re-registers consumers, but not queues, exchanges or bindings: they are durable,
      // so they outlive the connection, and they were declared on short-lived channels that are
      // closed by the time the connection recovers, where declaring them again fails (and logs an
      // error with its stack trace for each one, eleven for every queue, on every recovery).
      factory.setTopologyRecoveryFilter(new TopologyRecoveryFilter() {
        @Override
        public boolean filterQueue(RecordedQueue queue) {
          return false;
        }

        @Override
        public boolean filterExchange(RecordedExchange exchange) {
          return false;
        }

        @Override
        public boolean filterBinding(RecordedBinding binding) {
          return false;
        }
      });
      factory.setNetworkRecoveryInterval(1_000);
      factory.setRequestedHeartbeat(15);
      factory.setConnectionTimeout(5_000);
      String id = UUID.randomUUID().toString().substring(0, 8);
      publishing = factory.newConnection(addresses.nodes(), "tidings-publish-" + id);
      consuming = factory.newConnection(addresses.nodes(), "tidings-consume-" + id);
      ConnectionRecoveries.watch(publishing, "publish", metrics);
      ConnectionRecoveries.watch(consuming, "consume", metrics);
      return new RabbitWorkQueue(publishing, consuming, options, clock, description, metrics);
    } catch (Exception e) {
      abortQuietly(publishing);
      abortQuietly(consuming);
      throw new QueueUnavailableException(
          "cannot connect to RabbitMQ at " + description + ": " + e.getMessage(), e);
    }
  }

  /** Empty when both connections are up; what is wrong otherwise (for /health). */
  public Optional<String> problem() {
    for (Connection connection : List.of(publishing, consuming)) {
      if (connection.isOpen()) continue;
      ShutdownSignalException reason = connection.getCloseReason();
      return Optional.of("RabbitMQ connection " + connection.getClientProvidedName() + " to "
          + description + " is closed"
          + (reason == null ? "" : ": " + reason.getMessage()) + " (recovering automatically)");
    }
    return Optional.empty();
  }

  @Override
  public void declare(QueueSpec spec) {
    withChannel(spec.name(), "declare queue '" + spec.name() + "'", channel -> {
      declareTopology(channel, spec);
      return null;
    });
    declared.put(spec.name(), spec);
    layouts.put(spec.name(), RabbitLayout.of(spec));
  }

  private void declareTopology(Channel channel, QueueSpec spec) throws IOException {
    var layout = RabbitLayout.of(spec);
    for (int lane = 0; lane < layout.lanes(); lane++)
      declareQueue(channel, layout.lane(lane), layout.laneArguments(queueType));
    declareLadder(channel);
    bindToLadder(channel, layout);
    channel.exchangeDeclare(layout.requeueExchange(), "headers", true);
    for (int lane = 0; lane < layout.lanes(); lane++) {
      channel.queueBind(
          layout.lane(lane),
          layout.requeueExchange(),
          "",
          Map.of("x-match", "all", TidingsHeaders.LANE, RabbitLayout.laneKey(lane)));
    }
    declareQueue(channel, layout.deadLetters(), DeadLetterStream.ARGUMENTS);
    for (Duration backoff : RabbitLayout.backoffs(spec))
      declareQueue(channel, layout.delayQueue(backoff), layout.delayArguments(queueType, backoff));
  }

  /** Declares the delay ladder, once per node: it is the same for every queue. */
  private void declareLadder(Channel channel) throws IOException {
    if (ladderDeclared) return;
    try {
      ladder.declare(channel);
    } catch (IOException | ShutdownSignalException e) {
      String refused = replyText(e, AMQP.PRECONDITION_FAILED);
      if (refused != null)
        throw new QueueTypeConflictException(ladder.queue(0), queueType, refused);
      throw e;
    }
    ladderDeclared = true;
  }

  /** Binds the lanes of {@code layout} to the ladder's end (again: a lane declared anew has lost its bindings). */
  private void bindToLadder(Channel channel, RabbitLayout layout) throws IOException {
    for (int lane = 0; lane < layout.lanes(); lane++) ladder.bindLane(channel, layout.lane(lane));
    boundToLadder.add(layout.queue());
  }

  /**
   * Before a delayed publish to {@code queue}: the ladder and the queue's bindings to it, where this
   * node has not made sure of them yet (it did not declare the queue, or a delayed publish failed).
   */
  private void readyLadderFor(String queue, RabbitLayout layout) {
    if (ladderDeclared && boundToLadder.contains(queue)) return;
    withChannel(queue, "prepare delayed delivery to '" + queue + "'", channel -> {
      declareLadder(channel);
      bindToLadder(channel, layout);
      return null;
    });
  }

  /** The delayed messages on the ladder, of every queue; NaN when the broker cannot be asked. */
  private double ladderWaiting() {
    try {
      return withChannel(ladder.queue(0), "count the delayed messages", ladder::waiting);
    } catch (UnknownQueueException e) {
      return 0; // no ladder: nothing was ever delayed here
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  /** Declares {@code name}; one that exists with other arguments (another type) is a conflict no retry resolves. */
  private void declareQueue(Channel channel, String name, Map<String, Object> arguments)
      throws IOException {
    try {
      channel.queueDeclare(name, true, false, false, arguments);
    } catch (IOException | ShutdownSignalException e) {
      String refused = replyText(e, AMQP.PRECONDITION_FAILED);
      if (refused != null) throw new QueueTypeConflictException(name, queueType, refused);
      throw e;
    }
  }

  @Override
  public void publish(String queue, Message message) {
    publishAll(queue, List.of(message));
  }

  /**
   * A delayed message goes onto the {@link DelayLadder} with its delay from this node's clock, rounded
   * up to whole seconds; the broker counts it down, so it needs no consumer to move it.
   */
  @Override
  public void publishAll(String queue, List<Message> messages) {
    RabbitLayout layout = layout(queue);
    QueueSpec spec = declared.get(queue);
    Instant now = clock.instant();
    var bookkeeping = new HashMap<String, Object>();
    if (spec != null) {
      bookkeeping.put(TidingsHeaders.MAX_DELIVERIES, spec.maxDeliveries());
      bookkeeping.put(TidingsHeaders.RETRY, TidingsHeaders.retryStamp(spec.retry()));
    }
    var outgoing = new ArrayList<ConfirmingPublisher.Outgoing>(messages.size());
    int delayed = 0;
    for (Message message : messages) {
      String lane = layout.lane(layout.laneOf(message.priority()));
      Duration delay = message.delayAfter(now); // refuses one too far ahead, before any is sent
      Instant notBefore = message.notBefore();
      var headers = new HashMap<String, Object>(bookkeeping);
      if (delay.isZero() || notBefore == null) {
        headers.put(TidingsHeaders.PUBLISHED, TidingsHeaders.micros(now));
        outgoing.add(new ConfirmingPublisher.Outgoing(
            lane,
            properties(message, TidingsHeaders.amqp(message.headers(), headers)),
            message.body()));
      } else {
        long seconds = DelayLadder.seconds(delay);
        headers.put(TidingsHeaders.PUBLISHED, TidingsHeaders.micros(notBefore));
        headers.put(TidingsHeaders.NOT_BEFORE, TidingsHeaders.micros(notBefore));
        outgoing.add(new ConfirmingPublisher.Outgoing(
            ladder.entry(seconds),
            DelayLadder.routingKey(seconds, lane),
            properties(message, TidingsHeaders.amqp(message.headers(), headers)),
            message.body()));
        delayed++;
      }
    }
    if (delayed > 0) readyLadderFor(queue, layout);
    try {
      publisher.publish(outgoing);
    } catch (RuntimeException e) {
      if (delayed > 0) {
        // the ladder or a binding may be what is missing (deleted behind Tidings' back): the next
        // delayed publish makes sure of them again
        ladderDeclared = false;
        boundToLadder.remove(queue);
      }
      throw e;
    }
    counters.publishedDelayed(queue, delayed);
  }

  private static AMQP.BasicProperties properties(Message message, Map<String, Object> headers) {
    return properties(UUID.randomUUID().toString(), message.priority(), headers);
  }

  static AMQP.BasicProperties properties(
      String messageId, int priority, Map<String, Object> headers) {
    return new AMQP.BasicProperties.Builder()
        .deliveryMode(2) // persistent
        .messageId(messageId)
        .priority(priority)
        .headers(headers)
        .build();
  }

  @Override
  public Subscription subscribe(String queue, int consumers, int prefetch, MessageHandler handler) {
    if (prefetch < 1)
      throw new IllegalArgumentException("prefetch must be at least 1 but was " + prefetch);
    Objects.requireNonNull(handler, "handler");
    // Each lane may hold up to the prefetch, so that one busy lane can keep every handler busy; at
    // most `prefetch` of them are being handled at a time.
    return start(queue, consumers, prefetch, prefetch, new RabbitSubscription.Work.One(handler));
  }

  @Override
  public Subscription subscribeBatches(
      String queue, int consumers, int batchSize, BatchHandler handler) {
    if (batchSize < 1)
      throw new IllegalArgumentException("batchSize must be at least 1 but was " + batchSize);
    Objects.requireNonNull(handler, "handler");
    return start(
        queue,
        consumers,
        batchSize,
        batchSize,
        new RabbitSubscription.Work.Batch(PoisonIsolation.around(queue, handler, metrics)));
  }

  private Subscription start(
      String queue, int consumers, int lanePrefetch, int capacity, RabbitSubscription.Work work) {
    if (consumers < 1)
      throw new IllegalArgumentException("consumers must be at least 1 but was " + consumers);
    RabbitLayout layout = layout(queue);
    QueueSpec spec = declared.get(queue);
    int oldestEvery = spec == null ? QueueSpec.DEFAULT_OLDEST_EVERY : spec.oldestEvery();
    var holder = new RabbitSubscription[1];
    RabbitSubscription subscription = withChannel(
        queue,
        "subscribe to '" + queue + "'",
        unused -> new RabbitSubscription(
            consuming,
            layout,
            consumers,
            lanePrefetch,
            capacity,
            oldestEvery,
            queueType == RabbitQueueType.QUORUM ? QUORUM_REFILL_WAIT : REFILL_WAIT,
            work,
            new RabbitSubscription.Queue() {
              @Override
              public QueueSpec specOf(Inbound inbound) {
                QueueSpec declaredSpec = declared.get(queue);
                return declaredSpec != null
                    ? declaredSpec
                    : TidingsHeaders.stampedSpec(
                        queue, layout.maxPriority(), inbound.properties().getHeaders());
              }

              @Override
              public void publish(List<ConfirmingPublisher.Outgoing> messages) {
                publisher.publish(messages);
              }

              @Override
              public void handedOut(Inbound inbound) {
                long published = TidingsHeaders.publishedAt(inbound.properties());
                if (published != Long.MAX_VALUE)
                  ages.handedOut(
                      layout.lane(inbound.lane()), TidingsHeaders.instantOfMicros(published));
                Map<String, Object> headers = inbound.properties().getHeaders();
                long notBefore = TidingsHeaders.number(headers, TidingsHeaders.NOT_BEFORE, -1);
                if (notBefore >= 0
                    && TidingsHeaders.integer(headers, TidingsHeaders.DELIVERIES, 0) == 0) {
                  counters.deliveredLate(
                      queue,
                      Duration.between(TidingsHeaders.instantOfMicros(notBefore), clock.instant()));
                }
              }
            },
            settlement,
            timeLimit,
            () -> redeclare(queue),
            () -> subscriptions.remove(holder[0]),
            counters));
    holder[0] = subscription;
    subscriptions.add(subscription);
    consumedSince.putIfAbsent(queue, clock.instant());
    return subscription;
  }

  /** Before a consumer consumes again: a queue deleted behind Tidings' back is declared again, if this node knows its spec. */
  private void redeclare(String queue) {
    QueueSpec spec = declared.get(queue);
    if (spec == null) return;
    try {
      declare(spec);
    } catch (RuntimeException e) {
      log.debug("cannot declare '{}' again yet: {}", queue, e.toString());
    }
  }

  /** Messages waiting in the lanes, and those waiting out a retry backoff where this node knows the queue's delay queues. */
  @Override
  public long depth(String queue) {
    RabbitLayout layout = layout(queue);
    QueueSpec spec = declared.get(queue);
    List<String> waiting = Stream.concat(
            Stream.iterate(0, lane -> lane < layout.lanes(), lane -> lane + 1).map(layout::lane),
            spec == null
                ? Stream.<String>empty()
                : RabbitLayout.backoffs(spec).stream().map(layout::delayQueue))
        .toList();
    return withChannel(queue, "measure '" + queue + "'", channel -> {
      long depth = 0;
      for (String name : waiting) depth += channel.queueDeclarePassive(name).getMessageCount();
      return depth;
    });
  }

  /** Empty: the delayed messages of every queue wait together in the delay ladder, not told apart. */
  @Override
  public OptionalLong delayed(String queue) {
    return OptionalLong.empty();
  }

  /**
   * On a node that consumes {@code queue}: the largest of its lanes' bounds ({@link LaneAges}); messages
   * waiting out a retry backoff are not counted, they wait on purpose. Empty on a node that does not
   * consume it.
   */
  @Override
  public Optional<Duration> oldestAge(String queue) {
    Instant since = consumedSince.get(queue);
    if (since == null) return Optional.empty();
    RabbitLayout layout = layout(queue);
    return Optional.of(withChannel(queue, "measure the age of '" + queue + "'", channel -> {
      Instant now = clock.instant();
      Duration oldest = Duration.ZERO;
      for (int lane = 0; lane < layout.lanes(); lane++) {
        String name = layout.lane(lane);
        Duration age =
            ages.seen(name, channel.queueDeclarePassive(name).getMessageCount(), now, since);
        if (age.compareTo(oldest) > 0) oldest = age;
      }
      return oldest;
    }));
  }

  /** Letters looked through to find the one an operator requeues or drops. */
  private static final int LETTERS_SEARCHED = 10_000;

  /**
   * Publishes the letter's message again, then a tombstone after the letter in its stream (a stream
   * keeps what it holds). Two operators requeueing one letter at once may publish it twice: its
   * consumers are idempotent, as every delivery is at least once.
   */
  @Override
  public boolean requeueDeadLetter(String queue, String messageId) {
    Optional<DeadLetter> letter = findDeadLetter(queue, messageId);
    if (letter.isEmpty()) return false;
    publishAll(
        queue,
        List.of(new Message(
            letter.get().body(), letter.get().priority(), letter.get().headers())));
    publisher.publish(List.of(DeadLetterStream.tombstone(layout(queue).deadLetters(), messageId)));
    return true;
  }

  @Override
  public boolean dropDeadLetter(String queue, String messageId) {
    if (findDeadLetter(queue, messageId).isEmpty()) return false;
    publisher.publish(List.of(DeadLetterStream.tombstone(layout(queue).deadLetters(), messageId)));
    return true;
  }

  private Optional<DeadLetter> findDeadLetter(String queue, String messageId) {
    return deadLetters(queue, LETTERS_SEARCHED).stream()
        .filter(letter -> letter.messageId().equals(messageId))
        .findFirst();
  }

  @Override
  public List<DeadLetter> deadLetters(String queue, int limit) {
    if (limit < 1) throw new IllegalArgumentException("limit must be at least 1 but was " + limit);
    RabbitLayout layout = layout(queue);
    return withChannel(
        queue,
        "read dead letters of '" + queue + "'",
        channel -> DeadLetterStream.newest(channel, layout.deadLetters(), limit));
  }

  @Override
  public void close() {
    for (RabbitSubscription subscription : List.copyOf(subscriptions)) subscription.close();
    for (Connection connection : List.of(publishing, consuming)) {
      try {
        if (connection.isOpen()) connection.close(5_000);
      } catch (IOException | RuntimeException e) {
        connection.abort();
      }
    }
    timer.shutdownNow();
  }

  /** Test hook: die as a killed process would, leaving unacked messages to the broker's requeue. */
  void abandon() {
    for (RabbitSubscription subscription : List.copyOf(subscriptions)) subscription.abandon();
    publishing.abort();
    consuming.abort();
    timer.shutdownNow();
  }

  /** Test hook: hold back the broker's publish confirms until {@link #resumeConfirms()}. */
  void pauseConfirms() {
    publisher.pauseConfirms();
  }

  void resumeConfirms() {
    publisher.resumeConfirms();
  }

  int publishCapacity() {
    return publisher.capacity();
  }

  /** Test hook: the broker closes every consumer channel of this queue's subscriptions with a channel error. */
  void provokeConsumerChannelErrors() throws IOException {
    for (RabbitSubscription subscription : subscriptions) subscription.provokeChannelErrors();
  }

  /** Test hook: the name the consuming connection gives the broker. */
  String consumingConnectionName() {
    return Objects.requireNonNullElse(consuming.getClientProvidedName(), "");
  }

  /** Test hook: the name the publishing connection gives the broker. */
  String publishingConnectionName() {
    return Objects.requireNonNullElse(publishing.getClientProvidedName(), "");
  }

  @Override
  public void delete(String queue) {
    QueueSpec spec = declared.get(queue);
    // a node that did not declare the queue knows neither its priorities nor its backoffs: it
    // deletes every lane there could be (deleting a missing queue is harmless) and no delay queue
    List<String> names = spec != null
        ? RabbitLayout.queueNames(spec)
        : RabbitLayout.queueNames(
            new QueueSpec(queue, QueueSpec.MAX_PRIORITY, 1, Duration.ofSeconds(1))
                .withRetry(RetryPolicy.IMMEDIATE));
    withChannel(queue, "delete '" + queue + "'", channel -> {
      for (String name : names) channel.queueDelete(name);
      channel.exchangeDelete(new RabbitLayout(queue, 0).requeueExchange());
      return null;
    });
    declared.remove(queue);
    layouts.remove(queue);
    boundToLadder.remove(queue);
  }

  /** Test hook: every queue and exchange this node declared for {@code queue}, for cleaning up. */
  List<String> declaredQueues(String queue) {
    QueueSpec spec = declared.get(queue);
    return spec == null ? List.of() : RabbitLayout.queueNames(spec);
  }

  /** The lanes of {@code queue}: from its spec when declared here, otherwise looked up once on the broker. */
  private RabbitLayout layout(String queue) {
    RabbitLayout known = layouts.get(queue);
    if (known != null) return known;
    withChannel(
        queue,
        "look up '" + queue + "'",
        channel -> channel.queueDeclarePassive(RabbitLayout.laneName(queue, 0)));
    int maxPriority = 0;
    for (int lane = QueueSpec.MAX_PRIORITY; lane > 0; lane--) {
      if (exists(RabbitLayout.laneName(queue, lane))) {
        maxPriority = lane;
        break;
      }
    }
    var found = new RabbitLayout(queue, maxPriority);
    layouts.putIfAbsent(queue, found);
    return layouts.get(queue);
  }

  private boolean exists(String name) {
    try {
      withChannel(name, "look up '" + name + "'", channel -> channel.queueDeclarePassive(name));
      return true;
    } catch (UnknownQueueException e) {
      return false;
    }
  }

  private interface ChannelWork<T extends @Nullable Object> {
    T run(Channel channel) throws IOException;
  }

  /** Runs {@code work} on a short-lived channel: a failed passive declare closes its channel, so none is shared. */
  private <T extends @Nullable Object> T withChannel(
      String queue, String what, ChannelWork<T> work) {
    Channel channel = null;
    try {
      channel = consuming.createChannel();
      return work.run(channel);
    } catch (IOException | ShutdownSignalException e) {
      if (notFound(e)) throw new UnknownQueueException(queue);
      throw new QueueUnavailableException(
          "cannot " + what + " on RabbitMQ at " + description + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      if (e instanceof UnknownQueueException
          || e instanceof QueueUnavailableException
          || e instanceof QueueTypeConflictException) throw e;
      throw new QueueUnavailableException(
          "cannot " + what + " on RabbitMQ at " + description + ": " + e.getMessage(), e);
    } finally {
      abortQuietly(channel);
    }
  }

  /** Abort, not close: the channel may be closed already. */
  private static void abortQuietly(@Nullable Channel channel) {
    if (channel == null) return;
    try {
      channel.abort();
    } catch (IOException | RuntimeException ignored) {
      // nothing left to release
    }
  }

  private static void abortQuietly(@Nullable Connection connection) {
    if (connection == null) return;
    try {
      connection.abort();
    } catch (RuntimeException ignored) {
      // nothing left to release
    }
  }

  private static boolean notFound(Throwable e) {
    return replyText(e, AMQP.NOT_FOUND) != null;
  }

  /** The broker's text when {@code e} is its closing a channel with {@code replyCode}, else null. */
  private static @Nullable String replyText(Throwable e, int replyCode) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ShutdownSignalException signal
          && signal.getReason() instanceof AMQP.Channel.Close close
          && close.getReplyCode() == replyCode) {
        return close.getReplyText();
      }
    }
    return null;
  }
}
