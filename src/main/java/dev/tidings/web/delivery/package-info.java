/** The HTTP routes of delivery receipts: the providers' webhooks and the generic delivery-events API. */
@NullMarked
package dev.tidings.web.delivery;

import org.jspecify.annotations.NullMarked;
