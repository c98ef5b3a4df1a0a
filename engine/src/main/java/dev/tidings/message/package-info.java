/**
 * The identity of one email (one campaign run's message to one subscriber) and the signed token that
 * every URL in it carries: the open-time slots, the open pixel, clicks and one-click unsubscribes read
 * whom a request is for from the token alone, without a database read, and delivery receipts
 * correlate on the {@link dev.tidings.message.MessageId} it names.
 */
@NullMarked
package dev.tidings.message;

import org.jspecify.annotations.NullMarked;
