/** What the activity intake tells: an event of a shop's visitor was accepted (viewed, added to cart, bought). */
@NullMarked
package dev.tidings.events.activity;

import org.jspecify.annotations.NullMarked;
