/**
 * A subscriber's story, read from what each capability publishes (delivery's funnel, open-time's shown
 * products, campaign names, activity): a read model that owns no table of its own.
 */
@NullMarked
package dev.tidings.history;

import org.jspecify.annotations.NullMarked;
