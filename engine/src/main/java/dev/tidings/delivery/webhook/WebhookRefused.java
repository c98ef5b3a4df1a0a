package dev.tidings.delivery.webhook;

import dev.tidings.ErrorKind;
import dev.tidings.TidingsException;

/**
 * A webhook request that is not taken: nothing of it reaches the sink. The kind decides the answer: a
 * request that does not prove it comes from the provider (no signature or credentials, a wrong one, a
 * certificate we will not fetch) is {@link ErrorKind#UNAUTHENTICATED}; an authentic request we still
 * refuse (a stale timestamp, a replayed token, a topic that is not ours) is {@link ErrorKind#FORBIDDEN};
 * a body that cannot be read is {@link ErrorKind#INVALID}, which the webhook routes answer with 400.
 */
public final class WebhookRefused extends TidingsException {
  private final ErrorKind kind;

  private WebhookRefused(ErrorKind kind, String detail) {
    super(detail);
    this.kind = kind;
  }

  public static WebhookRefused unauthenticated(String detail) {
    return new WebhookRefused(ErrorKind.UNAUTHENTICATED, detail);
  }

  public static WebhookRefused forbidden(String detail) {
    return new WebhookRefused(ErrorKind.FORBIDDEN, detail);
  }

  public static WebhookRefused malformed(String detail) {
    return new WebhookRefused(ErrorKind.INVALID, detail);
  }

  @Override
  public ErrorKind kind() {
    return kind;
  }
}
