/**
 * The HTTP routes of delivery receipts: the providers' webhooks, the generic delivery-events API,
 * campaign statistics and message histories.
 */
@NullMarked
package dev.tidings.web.delivery;

import org.jspecify.annotations.NullMarked;
