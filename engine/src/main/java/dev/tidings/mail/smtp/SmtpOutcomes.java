package dev.tidings.mail.smtp;

import dev.tidings.mail.SendResult;
import jakarta.mail.MessagingException;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;
import org.jspecify.annotations.Nullable;

/** Turns what Angus throws into the outcome the campaign ledger needs. */
final class SmtpOutcomes {
  /** The Deferred code when no server reply exists (no connection, or it died before DATA). */
  static final int NO_REPLY = 0;

  private SmtpOutcomes() {}

  @SuppressWarnings(
      "ReferenceEquality") // identity on purpose: a chain that links back to itself ends here
  static SendResult of(MessagingException failure, boolean endOfDataSent) {
    for (Throwable t = failure, seen = null; t != null && t != seen; seen = t, t = next(t)) {
      int code = replyCode(t);
      if (code >= 400 && code < 500) return new SendResult.Deferred(code, reply(t));
      if (code >= 500 && code < 600) return new SendResult.Rejected(code, reply(t));
    }
    String reason = describe(failure);
    return endOfDataSent
        ? new SendResult.Unknown("connection lost after the message data was sent: " + reason)
        : new SendResult.Deferred(NO_REPLY, reason);
  }

  private static int replyCode(Throwable t) {
    return switch (t) {
      case SMTPAddressFailedException e -> e.getReturnCode();
      case SMTPSenderFailedException e -> e.getReturnCode();
      case SMTPSendFailedException e -> e.getReturnCode();
      default -> -1;
    };
  }

  private static String reply(Throwable t) {
    String message = t.getMessage();
    return message == null ? "" : message.strip();
  }

  private static @Nullable Throwable next(Throwable t) {
    if (t instanceof MessagingException m && m.getNextException() != null)
      return m.getNextException();
    return t.getCause();
  }

  @SuppressWarnings(
      "ReferenceEquality") // identity on purpose: a cause that is its own cause ends the chain
  static String describe(Throwable failure) {
    var text = new StringBuilder();
    for (Throwable t = failure;
        t != null && text.length() < 500;
        t = t.getCause() == t ? null : t.getCause()) {
      if (!text.isEmpty()) text.append(": ");
      text.append(t.getClass().getSimpleName());
      if (t.getMessage() != null) text.append(' ').append(t.getMessage().strip());
    }
    return text.toString();
  }
}
