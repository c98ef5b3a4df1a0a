package dev.tidings.mail.smtp;

import dev.tidings.config.Secret;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
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
import org.jspecify.annotations.Nullable;

/**
 * Sends through an SMTP server with Angus Mail, keeping up to {@code poolSize} connections open and
 * reusing them (a TCP + TLS + AUTH handshake per message would cost more than the message). A pooled
 * connection that turns out dead before any data went out is replaced and the send retried once, so
 * a server restart costs no messages.
 */
public final class SmtpMailTransport implements MailTransport {
  /** A connection idle this long is checked with NOOP before use; servers drop idle clients. */
  private static final Duration CHECK_IF_IDLE_FOR = Duration.ofSeconds(30);

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
    // Long enough for every busy connection to finish one slow send, so waiting is bounded but
    // fair.
    this.waitForConnection =
        settings.connectTimeout().plus(settings.readTimeout()).plus(settings.writeTimeout());
  }

  public static SmtpMailTransport fromUrl(URI url, InstantSource clock) {
    return new SmtpMailTransport(SmtpSettings.fromUrl(url), clock);
  }

  @Override
  public SendResult send(OutgoingEmail email) {
    if (closed) return new SendResult.Deferred(SmtpOutcomes.NO_REPLY, "SMTP transport is closed");
    try {
      if (!permits.tryAcquire(waitForConnection.toMillis(), TimeUnit.MILLISECONDS)) {
        return new SendResult.Deferred(
            SmtpOutcomes.NO_REPLY,
            "all " + settings.poolSize() + " SMTP connections stayed busy for "
                + waitForConnection);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SendResult.Deferred(
          SmtpOutcomes.NO_REPLY, "interrupted waiting for an SMTP connection");
    }
    try {
      var message = MimeEmails.toMime(email, session, clock.instant());
      TrackedSmtpConnection pooled = takeIdle();
      if (pooled != null) {
        SendResult first = sendOn(pooled, message, email);
        // A pooled connection the server had already dropped: nothing was sent, so a retry is safe.
        if (!(first instanceof SendResult.Deferred deferred
            && deferred.code() == SmtpOutcomes.NO_REPLY)) return first;
      }
      TrackedSmtpConnection fresh;
      try {
        fresh = connect();
      } catch (MessagingException e) {
        return new SendResult.Deferred(
            SmtpOutcomes.NO_REPLY,
            "cannot connect to " + settings.describe() + ": " + SmtpOutcomes.describe(e));
      }
      return sendOn(fresh, message, email);
    } finally {
      permits.release();
    }
  }

  private SendResult sendOn(
      TrackedSmtpConnection connection,
      jakarta.mail.internet.MimeMessage message,
      OutgoingEmail email) {
    connection.beginMessage();
    try {
      connection.sendMessage(message, message.getAllRecipients());
      connection.markUsed();
      String reply =
          Objects.requireNonNullElse(connection.getLastServerResponse(), "").strip();
      giveBack(connection);
      return new SendResult.Accepted(email.messageId(), reply);
    } catch (MessagingException e) {
      // The SMTP dialogue may be mid-transaction; a fresh connection is cheaper than working out
      // where.
      closeQuietly(connection);
      return SmtpOutcomes.of(e, connection.endOfDataSent());
    } catch (RuntimeException e) {
      closeQuietly(connection);
      return connection.endOfDataSent()
          ? new SendResult.Unknown(SmtpOutcomes.describe(e))
          : new SendResult.Deferred(SmtpOutcomes.NO_REPLY, SmtpOutcomes.describe(e));
    }
  }

  private @Nullable TrackedSmtpConnection takeIdle() {
    TrackedSmtpConnection connection;
    while ((connection = idle.pollFirst()) != null) {
      // isConnected() sends NOOP: only worth its round trip when the server may have given up on
      // us.
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
