package dev.tidings.delivery;

/** Where a receipt came from. */
public enum ReceiptSource {
  /** The sender's own SMTP outcome. */
  SMTP,
  /** The open pixel or a slot image. */
  PIXEL,
  /** A slot link's redirect. */
  CLICK,
  /** The one-click unsubscribe. */
  UNSUBSCRIBE,
  SENDGRID,
  SES,
  MAILGUN,
  POSTMARK,
  /** {@code POST /api/v1/delivery-events}. */
  API
}
