/**
 * The providers' delivery webhooks (SendGrid, Amazon SES through SNS, Mailgun, Postmark) and the
 * generic delivery-events API, up to the {@link dev.tidings.delivery.ReceiptSink}: each request is
 * verified by the provider's own scheme, then its events are mapped to {@link
 * dev.tidings.delivery.Receipt}s. Nothing is handed on from a request that fails either step.
 */
@NullMarked
package dev.tidings.delivery.webhook;

import org.jspecify.annotations.NullMarked;
