package dev.tidings.mail.outbox;

import dev.tidings.mail.Handover;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The embedded default: every email becomes one RFC 5322 {@code .eml} file under
 * {@code outbox/yyyy-MM-dd/}, named after its message id. A file appears whole or not at all (written
 * to a temporary file, then renamed atomically), so a reader never sees half a message; sending the
 * same message id again replaces the file, so a retry leaves one copy.
 */
public final class OutboxMailTransport implements MailTransport {
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
  private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,120}");
  private static final int OUTBOX_FAILURE =
      451; // "local error in processing", as an SMTP server would say

  private final Path directory;
  private final InstantSource clock;
  private final Session session = MimeEmails.offlineSession();

  public OutboxMailTransport(Path directory, InstantSource clock) {
    this.directory = Objects.requireNonNull(directory, "directory").toAbsolutePath();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public Path directory() {
    return directory;
  }

  @Override
  public SendResult send(OutgoingEmail email, Handover handover) {
    var now = clock.instant();
    Path day = directory.resolve(DAY.format(now));
    Path target = day.resolve(fileName(email.messageId()));
    Path temporary = null;
    try {
      Files.createDirectories(day);
      temporary = Files.createTempFile(day, ".sending-", ".tmp");
      var message = MimeEmails.toMime(email, session, now);
      try (var channel = FileChannel.open(
          temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream out = Channels.newOutputStream(channel);
        message.writeTo(out);
        out.flush();
        channel.force(false); // the rename must not become visible before the bytes are on disk
      }
      if (!handover.proceed())
        return new SendResult.Withheld("the sender withdrew it before it entered the outbox");
      moveIntoPlace(temporary, target);
      temporary = null;
      return new SendResult.Accepted(email.messageId(), "written to " + target);
    } catch (IOException | MessagingException e) {
      return new SendResult.Deferred(OUTBOX_FAILURE, "cannot write " + target + ": " + e);
    } finally {
      if (temporary != null) deleteQuietly(temporary);
    }
  }

  private static void moveIntoPlace(Path temporary, Path target) throws IOException {
    try {
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      // Same directory, so this only happens on exotic file systems;
      // ATOMIC_MOVE replaces on POSIX anyway.
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * The message id as a file name when it is already safe; otherwise its safe characters plus a
   * checksum of the original, so two ids that differ only in unsafe characters stay two files.
   */
  static String fileName(String messageId) {
    if (SAFE_NAME.matcher(messageId).matches() && !messageId.startsWith("."))
      return messageId + ".eml";
    String cleaned = messageId.replaceAll("[^A-Za-z0-9._-]", "_").replaceFirst("^\\.+", "_");
    if (cleaned.length() > 100) cleaned = cleaned.substring(0, 100);
    var crc = new CRC32();
    crc.update(messageId.getBytes(StandardCharsets.UTF_8));
    return cleaned + "-" + HexFormat.of().toHexDigits((int) crc.getValue()) + ".eml";
  }

  @Override
  public String describe() {
    return ".eml files in " + directory;
  }

  @Override
  public Optional<String> problem() {
    try {
      Files.createDirectories(directory);
      Path probe = Files.createTempFile(directory, ".probe-", ".tmp");
      Files.delete(probe);
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.of("outbox directory " + directory + " is not writable: " + e);
    }
  }

  @Override
  public void close() {}

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // A stray .tmp file is harmless: readers only look at .eml files.
    }
  }
}
