package dev.tidings.queue.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.tidings.queue.DeadLetter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Reads the newest dead letters of a queue from its dead-letter stream, however long the stream is.
 *
 * <p>A stream is read from an offset and keeps what it holds. Its end is found by reading from
 * {@code last} (the start of its last chunk, a batch of messages written together): once the chunk
 * stops arriving, its highest offset is the end. If that chunk holds fewer than {@code limit}
 * letters, the stream is read again from {@code end - limit + 1}, up to the end. Only about
 * {@code limit} plus one chunk of letters are read, whatever the stream holds.
 */
final class DeadLetterStream {
  /** Declare arguments: a stream capped at about 1 GB, dropping its oldest 16 MB segment first. */
  static final Map<String, Object> ARGUMENTS = Map.of(
      "x-queue-type",
      "stream",
      "x-max-length-bytes",
      1_000_000_000L,
      "x-stream-max-segment-size-bytes",
      16_000_000);

  /** How long an empty stream may take to answer its first message; a stream with letters answers at once. */
  private static final Duration FIRST_WAIT = Duration.ofMillis(200);
  /** Silence after which the last chunk is taken to have arrived whole. */
  private static final Duration CHUNK_SILENCE = Duration.ofMillis(40);
  /** How long one letter known to exist may take to arrive. */
  private static final Duration NEXT_WAIT = Duration.ofSeconds(5);

  /** A stream entry: a letter, or a tombstone resolving the letter of message {@code resolves}. */
  private record Letter(
      long offset, DeadLetter letter, @Nullable String resolves) {}

  /** The most entries read to find live letters among tombstones. */
  private static final int MOST_READ = 20_000;

  private DeadLetterStream() {}

  /**
   * Newest first, at most {@code limit}, without those a later tombstone resolved: a stream keeps what
   * it holds, so a letter requeued or dropped stays in it, followed by a tombstone naming it. A
   * tombstone always follows its letter, so any window that reaches the end holds the tombstones of its
   * letters; the window grows until it holds {@code limit} live letters, the stream's start or
   * {@value #MOST_READ} entries.
   */
  static List<DeadLetter> newest(Channel channel, String stream, int limit) throws IOException {
    List<Letter> last = read(channel, stream, "last", Long.MAX_VALUE, Math.max(limit, 64));
    if (last.isEmpty()) return List.of();
    long end = last.stream().mapToLong(Letter::offset).max().orElseThrow();
    long start = last.stream().mapToLong(Letter::offset).min().orElseThrow();
    List<Letter> letters = last;
    int window = limit;
    while (live(letters, end).size() < limit && start > 0) {
      window = Math.min(MOST_READ, window * 4);
      letters = read(channel, stream, Math.max(0, end - window + 1), end, Math.min(window, 1_000));
      start = Math.max(0, end - window + 1);
      if (window == MOST_READ) break;
    }
    return live(letters, end).stream().limit(limit).toList();
  }

  private static List<DeadLetter> live(List<Letter> letters, long end) {
    var resolved = new HashSet<String>();
    var live = new ArrayList<DeadLetter>();
    for (Letter letter : letters.stream()
        .filter(letter -> letter.offset() <= end)
        .sorted(Comparator.comparingLong(Letter::offset).reversed())
        .toList()) {
      if (letter.resolves() != null) resolved.add(letter.resolves());
      else if (!resolved.contains(letter.letter().messageId())) live.add(letter.letter());
    }
    return live;
  }

  /** The tombstone that resolves the letter of {@code messageId}. */
  static ConfirmingPublisher.Outgoing tombstone(String stream, String messageId) {
    return new ConfirmingPublisher.Outgoing(
        stream,
        new AMQP.BasicProperties.Builder()
            .deliveryMode(2)
            .headers(Map.of(TidingsHeaders.RESOLVES, messageId))
            .build(),
        new byte[0]);
  }

  /** Letters from {@code from} (an offset or a stream position name) until {@code end}, or until silence when the end is unknown. */
  private static List<Letter> read(
      Channel channel, String stream, Object from, long end, int prefetch) throws IOException {
    var arrived = new LinkedBlockingQueue<Letter>();
    channel.basicQos(Math.min(prefetch, 1_000), false);
    String tag = channel.basicConsume(
        stream, false, Map.of("x-stream-offset", from), new DefaultConsumer(channel) {
          @Override
          public void handleDelivery(
              String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
              throws IOException {
            long offset = TidingsHeaders.number(properties.getHeaders(), "x-stream-offset", -1);
            String resolves =
                TidingsHeaders.text(properties.getHeaders(), TidingsHeaders.RESOLVES, "");
            arrived.add(new Letter(
                offset, deadLetter(properties, body), resolves.isEmpty() ? null : resolves));
            getChannel().basicAck(envelope.getDeliveryTag(), false);
          }
        });
    var letters = new ArrayList<Letter>();
    boolean endKnown = end != Long.MAX_VALUE;
    try {
      Duration wait = endKnown ? NEXT_WAIT : FIRST_WAIT;
      while (true) {
        Letter letter = arrived.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        if (letter == null) break;
        letters.add(letter);
        if (endKnown && letter.offset() >= end) break;
        wait = endKnown ? NEXT_WAIT : CHUNK_SILENCE;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted reading dead letters of '" + stream + "'", e);
    } finally {
      if (channel.isOpen()) channel.basicCancel(tag);
    }
    return letters;
  }

  /**
   * Why the broker itself dead-lettered a message (a quorum lane's copy returned more than
   * {@link RabbitLayout#RETURNS_LIMIT} times), for letters Tidings did not write.
   */
  private static String brokersReason(Map<String, Object> headers) {
    String reason = TidingsHeaders.text(headers, "x-first-death-reason", "");
    if (reason.equals("delivery_limit"))
      return "RabbitMQ returned it to its lane more than " + RabbitLayout.RETURNS_LIMIT
          + " times without any consumer settling it (x-delivery-limit)";
    return reason.isEmpty() ? "" : "dead-lettered by RabbitMQ: " + reason;
  }

  private static DeadLetter deadLetter(AMQP.BasicProperties properties, byte[] body) {
    Map<String, Object> headers = properties.getHeaders();
    return new DeadLetter(
        Objects.requireNonNullElse(properties.getMessageId(), ""),
        body,
        properties.getPriority() == null ? 0 : properties.getPriority(),
        TidingsHeaders.integer(headers, TidingsHeaders.DELIVERIES, 0),
        TidingsHeaders.text(headers, TidingsHeaders.REASON, brokersReason(headers)),
        TidingsHeaders.instantOfMicros(TidingsHeaders.number(headers, TidingsHeaders.DEAD_AT, 0)),
        TidingsHeaders.user(headers));
  }
}
