/** Mailgun webhooks: HMAC-SHA256 of timestamp and token, single-use tokens, one event per request. */
@NullMarked
package dev.tidings.delivery.webhook.mailgun;

import org.jspecify.annotations.NullMarked;
