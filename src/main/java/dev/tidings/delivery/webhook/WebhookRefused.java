package dev.tidings.delivery.webhook;

import dev.tidings.TidingsException;

/**
 * A webhook request that is not taken: nothing of it reaches the sink. The kind decides the answer: a
 * request that does not prove it comes from the provider (no signature or credentials, a wrong one, a
 * certificate we will not fetch) is 401; an authentic request we still refuse (a stale timestamp, a
 * replayed token, a topic that is not ours) is 403; a body that cannot be read is 400.
 */
public final class WebhookRefused extends TidingsException {
  public enum Kind {
    UNAUTHENTICATED,
    FORBIDDEN,
    MALFORMED
  }

  private final Kind kind;
  private final String detail;

  private WebhookRefused(Kind kind, String detail) {
    super(detail);
    this.kind = kind;
    this.detail = detail;
  }

  /** What is wrong, for the answer's detail. */
  public String detail() {
    return detail;
  }

  public static WebhookRefused unauthenticated(String detail) {
    return new WebhookRefused(Kind.UNAUTHENTICATED, detail);
  }

  public static WebhookRefused forbidden(String detail) {
    return new WebhookRefused(Kind.FORBIDDEN, detail);
  }

  public static WebhookRefused malformed(String detail) {
    return new WebhookRefused(Kind.MALFORMED, detail);
  }

  public Kind kind() {
    return kind;
  }
}
