/** SendGrid's signed Event Webhook: ECDSA P-256 over timestamp and raw body, JSON arrays of events. */
@NullMarked
package dev.tidings.delivery.webhook.sendgrid;

import org.jspecify.annotations.NullMarked;
