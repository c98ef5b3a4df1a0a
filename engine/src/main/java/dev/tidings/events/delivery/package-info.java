/**
 * What the delivery funnel tells: a counted email reached a step for the first time. Each carries the
 * message, its campaign and the subscriber's id; previews and test sends tell nothing.
 */
@NullMarked
package dev.tidings.events.delivery;

import org.jspecify.annotations.NullMarked;
