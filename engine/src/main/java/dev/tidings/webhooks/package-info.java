/**
 * Outgoing webhooks: every event Tidings tells, POSTed to the shop's own endpoints.
 *
 * <p>An operator registers endpoints ({@link dev.tidings.webhooks.WebhookEndpoints}), each with the
 * event types it hears and a secret. {@link dev.tidings.webhooks.WebhookFanOut} hears every event
 * from the relay and queues one {@link dev.tidings.webhooks.WebhookDelivery} per endpoint that
 * chose its type; {@link dev.tidings.webhooks.WebhookSender} POSTs each through the guarded fetcher,
 * signed as the Standard Webhooks specification says ({@link
 * dev.tidings.webhooks.WebhookSignature}), and on a failure queues it again, not before the
 * {@link dev.tidings.webhooks.RetrySchedule}'s next delay; after the last attempt it becomes a dead
 * letter ({@link dev.tidings.webhooks.WebhookDeadLetters}) an operator replays. At least once: the
 * {@code webhook-id} (the event's id) is what a receiver de-duplicates on.
 */
@NullMarked
package dev.tidings.webhooks;

import org.jspecify.annotations.NullMarked;
