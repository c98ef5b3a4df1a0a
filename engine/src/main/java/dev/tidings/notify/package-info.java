/**
 * Follow notifications (seed 04): content people follow, fanned out when published into each follower's
 * bucket for the day (and to subscribers near its place), read back as a digest of the last days after
 * each day's flush marker, applicability checked at read time.
 */
@NullMarked
package dev.tidings.notify;

import org.jspecify.annotations.NullMarked;
