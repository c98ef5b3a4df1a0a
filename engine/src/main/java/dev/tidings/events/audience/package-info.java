/** What the audience tells: a subscriber joined, changed consent, was suppressed or erased. */
@NullMarked
package dev.tidings.events.audience;

import org.jspecify.annotations.NullMarked;
