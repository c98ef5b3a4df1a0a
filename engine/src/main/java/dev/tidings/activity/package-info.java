/** Activity intake: raw events (views, clicks, purchases) stored as received, replays ignored. */
@NullMarked
package dev.tidings.activity;

import org.jspecify.annotations.NullMarked;
