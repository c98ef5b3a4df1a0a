/** What the notifications tell: a digest was sent to a subscriber. */
@NullMarked
package dev.tidings.events.notify;

import org.jspecify.annotations.NullMarked;
