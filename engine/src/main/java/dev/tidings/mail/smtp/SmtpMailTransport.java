package dev.tidings.mail.smtp;

import dev.tidings.config.Secret;
import dev.tidings.mail.Handover;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Sends through an SMTP server with Angus Mail, keeping up to {@code poolSize} connections open and
 * reusing them (a TCP + TLS + AUTH handshake per message would cost more than the message). A pooled
 * connection that turns out dead, or that the server closes with a 421, before any data went out is
 * replaced and the send retried once, so a server restart or an idle timeout costs no messages. A
 * whole send is bounded by the send timeout, after which it is Deferred (nothing sent) or Unknown
 * (the message data went out).
 */
public final class SmtpMailTransport implements MailTransport {
  /** A connection idle this long is checked with NOOP before use; servers drop idle clients. */
  private static final Duration CHECK_IF_IDLE_FOR = Duration.ofSeconds(30);

  /** "Service not available, closing transmission channel". */
  private static final int SERVICE_CLOSING = 421;

  /**
   * How long an interrupted send gets to close its socket and say how far it got; a virtual thread
   * blocked on a socket is woken at once, so this is only reached when it is stuck elsewhere (a DNS
   * lookup).
   */
  private static final Duration AFTER_INTERRUPT = Duration.ofSeconds(1);

  private final SmtpSettings settings;
  private final InstantSource clock;
  private final Session session;
  private final ScheduledExecutorService writeTimeouts;
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<TrackedSmtpConnection> idle = new ConcurrentLinkedDeque<>();
  private final Duration waitForConnection;
  private volatile boolean closed;

  public SmtpMailTransport(SmtpSettings settings, InstantSource clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.writeTimeouts = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().daemon().name("smtp-write-timeouts").factory());
    this.session = Session.getInstance(properties(settings, writeTimeouts));
    this.permits = new Semaphore(settings.poolSize(), true);
    // Long enough for every busy connection to finish one slow send,
    // so waiting is bounded but fair.
    this.waitForConnection =
        settings.connectTimeout().plus(settings.readTimeout()).plus(settings.writeTimeout());
  }

  public static SmtpMailTransport fromUrl(URI url, InstantSource clock) {
    return new SmtpMailTransport(SmtpSettings.fromUrl(url), clock);
  }

  @Override
  public SendResult send(OutgoingEmail email, Handover handover) {
    if (closed) return new SendResult.Deferred(SmtpOutcomes.NO_REPLY, "SMTP transport is closed");
    long deadline = System.nanoTime() + settings.sendTimeout().toNanos();
    Duration wait = waitForConnection.compareTo(settings.sendTimeout()) < 0
        ? waitForConnection
        : settings.sendTimeout();
    // before the wait for a connection, so the handover's write is done by the end of the data
    // instead of holding a connection that every other sender is waiting for
    handover.begin();
    try {
      if (!permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        return new SendResult.Deferred(
            SmtpOutcomes.NO_REPLY,
            "all " + settings.poolSize() + " SMTP connections stayed busy for " + wait);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SendResult.Deferred(
          SmtpOutcomes.NO_REPLY, "interrupted waiting for an SMTP connection");
    }
    try {
      var message =
          MimeEmails.toMime(settings.provider().correlated(email), session, clock.instant());
      return withinSendTimeout(message, email, handover, deadline);
    } finally {
      permits.release();
    }
  }

  /**
   * Runs the send on a virtual thread of its own and interrupts it at the deadline: a virtual thread
   * interrupted in a socket operation has that socket closed, so the dialogue ends there whatever the
   * server does, and the outcome says how far it got (Deferred before the end of the message data,
   * Unknown after). Read and write timeouts bound one operation each; this bounds their sum.
   */
  private SendResult withinSendTimeout(
      MimeMessage message, OutgoingEmail email, Handover handover, long deadline) {
    var gate = new SendGate();
    var outcome = new AtomicReference<SendResult>();
    Thread sender = Thread.ofVirtual().name("smtp-send-" + email.messageId()).start(() -> {
      try {
        outcome.set(sendRetryingOnce(message, email, handover, gate));
      } catch (RuntimeException e) {
        outcome.set(
            gate.entered()
                ? new SendResult.Unknown(SmtpOutcomes.describe(e))
                : new SendResult.Deferred(SmtpOutcomes.NO_REPLY, SmtpOutcomes.describe(e)));
      }
    });
    try {
      if (sender.join(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
        return Objects.requireNonNull(outcome.get(), "a finished send has an outcome");
      }
      sender.interrupt();
      boolean mayHaveSent = gate.close();
      if (sender.join(AFTER_INTERRUPT)) {
        return timedOut(Objects.requireNonNull(outcome.get(), "a finished send has an outcome"));
      }
      return mayHaveSent
          ? new SendResult.Unknown("no end to the send within the send timeout of "
              + settings.sendTimeout() + " after the SMTP dialogue began")
          : new SendResult.Deferred(
              SmtpOutcomes.NO_REPLY,
              "no SMTP connection within the send timeout of " + settings.sendTimeout());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      sender.interrupt();
      gate.close();
      return new SendResult.Unknown("interrupted while sending");
    }
  }

  /** What the interrupted send answered, saying that the send timeout ended it. */
  private SendResult timedOut(SendResult result) {
    String why = "the send timeout of " + settings.sendTimeout() + " passed";
    return switch (result) {
      case SendResult.Deferred deferred
      when deferred.code() == SmtpOutcomes.NO_REPLY ->
        new SendResult.Deferred(SmtpOutcomes.NO_REPLY, why + ": " + deferred.reply());
      case SendResult.Unknown unknown ->
        new SendResult.Unknown(why + " after the message data was sent: " + unknown.reason());
      default -> result; // the server answered (or took the message) just in time
    };
  }

  private SendResult sendRetryingOnce(
      MimeMessage message, OutgoingEmail email, Handover handover, SendGate gate) {
    TrackedSmtpConnection pooled = takeIdle();
    if (pooled != null) {
      SendResult first = sendOn(pooled, message, email, handover, gate);
      if (!serverHadClosed(first, pooled)) return first;
    }
    TrackedSmtpConnection fresh;
    try {
      fresh = connect();
    } catch (MessagingException e) {
      return new SendResult.Deferred(
          SmtpOutcomes.NO_REPLY,
          "cannot connect to " + settings.describe() + ": " + SmtpOutcomes.describe(e));
    }
    return sendOn(fresh, message, email, handover, gate);
  }

  /**
   * A pooled connection that had been dropped (no reply) or that the server is closing (421, which
   * servers send to a client that sat idle too long) before the message data went out: the server
   * took nothing, so the send is safe to try once more on a fresh connection.
   */
  private static boolean serverHadClosed(SendResult result, TrackedSmtpConnection connection) {
    return result instanceof SendResult.Deferred deferred
        && (deferred.code() == SmtpOutcomes.NO_REPLY || deferred.code() == SERVICE_CLOSING)
        && !connection.endOfDataSent();
  }

  private SendResult sendOn(
      TrackedSmtpConnection connection,
      MimeMessage message,
      OutgoingEmail email,
      Handover handover,
      SendGate gate) {
    if (!gate.enter()) {
      closeQuietly(connection);
      return new SendResult.Deferred(SmtpOutcomes.NO_REPLY, "the send timed out before it began");
    }
    connection.beginMessage(handover);
    try {
      connection.sendMessage(message, MimeEmails.envelopeRecipients(email));
      connection.markUsed();
      String reply =
          Objects.requireNonNullElse(connection.getLastServerResponse(), "").strip();
      giveBack(connection);
      return new SendResult.Accepted(email.messageId(), reply);
    } catch (MessagingException e) {
      // The SMTP dialogue may be mid-transaction; a fresh connection is cheaper than working out
      // where. Closing it is also what makes the server drop a withheld message.
      closeQuietly(connection);
      if (connection.withheld())
        return new SendResult.Withheld("the sender withdrew it before the end of the message data");
      return SmtpOutcomes.of(e, connection.endOfDataSent());
    } catch (RuntimeException e) {
      // a handover that failed (its store unreachable) withdraws the message too
      closeQuietly(connection);
      return connection.endOfDataSent()
          ? new SendResult.Unknown(SmtpOutcomes.describe(e))
          : new SendResult.Deferred(SmtpOutcomes.NO_REPLY, SmtpOutcomes.describe(e));
    }
  }

  /**
   * Whether a timed-out send may have put anything on the wire: the sending thread passes it before
   * each SMTP transaction, the caller closes it at the deadline. Once closed, no transaction starts,
   * so a sender that has not passed it can be answered Deferred even if it is still stuck connecting.
   */
  private static final class SendGate {
    private boolean closed;
    private boolean entered;

    synchronized boolean enter() {
      if (closed) return false;
      entered = true;
      return true;
    }

    synchronized boolean entered() {
      return entered;
    }

    /** Closes the gate; true when a transaction had begun. */
    synchronized boolean close() {
      closed = true;
      return entered;
    }
  }

  private @Nullable TrackedSmtpConnection takeIdle() {
    TrackedSmtpConnection connection;
    while ((connection = idle.pollFirst()) != null) {
      // isConnected() sends NOOP:
      // only worth its round trip when the server may have given up on us.
      if (connection.idleNanos() < CHECK_IF_IDLE_FOR.toNanos() || connection.isConnected())
        return connection;
      closeQuietly(connection);
    }
    return null;
  }

  private void giveBack(TrackedSmtpConnection connection) {
    if (closed || idle.size() >= settings.poolSize()) {
      closeQuietly(connection);
      return;
    }
    idle.offerFirst(connection); // most recently used first, so spare ones age out
    if (closed && idle.remove(connection)) closeQuietly(connection);
  }

  private TrackedSmtpConnection connect() throws MessagingException {
    var connection = new TrackedSmtpConnection(session, settings.implicitTls());
    connection.connect(
        settings.host(),
        settings.port(),
        settings.user().orElse(null),
        settings.password().map(Secret::value).orElse(null));
    connection.markUsed();
    return connection;
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  @Override
  public Optional<String> problem() {
    if (closed) return Optional.of("SMTP transport is closed");
    TrackedSmtpConnection pooled = idle.pollFirst();
    if (pooled != null) {
      if (pooled.isConnected()) {
        pooled.markUsed();
        giveBack(pooled);
        return Optional.empty();
      }
      closeQuietly(pooled);
    }
    try {
      var connection = connect();
      giveBack(connection);
      return Optional.empty();
    } catch (MessagingException e) {
      return Optional.of(
          "cannot reach SMTP server " + settings.describe() + ": " + SmtpOutcomes.describe(e));
    }
  }

  @Override
  public void close() {
    closed = true;
    TrackedSmtpConnection connection;
    while ((connection = idle.pollFirst()) != null) closeQuietly(connection);
    writeTimeouts.shutdownNow();
  }

  private static void closeQuietly(TrackedSmtpConnection connection) {
    try {
      connection.close();
    } catch (MessagingException | RuntimeException ignored) {
      // Closing a broken connection fails in interesting ways; it is gone either way.
    }
  }

  private static Properties properties(
      SmtpSettings settings, ScheduledExecutorService writeTimeouts) {
    String prefix = settings.implicitTls() ? "mail.smtps." : "mail.smtp.";
    var properties = new Properties();
    properties.put(prefix + "host", settings.host());
    properties.put(prefix + "port", Integer.toString(settings.port()));
    properties.put(
        prefix + "connectiontimeout", Long.toString(settings.connectTimeout().toMillis()));
    properties.put(prefix + "timeout", Long.toString(settings.readTimeout().toMillis()));
    properties.put(
        prefix + "writetimeout", Long.toString(settings.writeTimeout().toMillis()));
    // Angus otherwise starts a scheduler thread per connection to enforce the write timeout.
    properties.put(prefix + "executor.writetimeout", writeTimeouts);
    properties.put(prefix + "auth", Boolean.toString(settings.user().isPresent()));
    if (!settings.implicitTls())
      properties.put(prefix + "socketFactory", new NoDelaySocketFactory());
    if (settings.startTls()) {
      properties.put(prefix + "starttls.enable", "true");
      properties.put(prefix + "starttls.required", "true");
    }
    if (settings.implicitTls() || settings.startTls())
      properties.put(prefix + "ssl.checkserveridentity", "true");
    settings.heloName().ifPresent(name -> properties.put(prefix + "localhost", name));
    return properties;
  }
}
