/** Postmark webhooks: no signature, so HTTP basic auth from the webhook URL; one record per request. */
@NullMarked
package dev.tidings.delivery.webhook.postmark;

import org.jspecify.annotations.NullMarked;
