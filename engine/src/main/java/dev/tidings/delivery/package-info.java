/**
 * Delivery receipts (seed 02, done better): what happened to each message after it was handed over,
 * from the sender's SMTP outcomes, the open pixel and slot links, unsubscribes and the providers'
 * webhooks; statuses that only move forward and an exact funnel per campaign.
 */
@NullMarked
package dev.tidings.delivery;

import org.jspecify.annotations.NullMarked;
