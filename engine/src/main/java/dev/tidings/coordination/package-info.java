/**
 * Coordination ports shared by every node of a Tidings installation: {@link
 * dev.tidings.coordination.ComputeOnce} (single-flight with a fenced lock and a published value, seed
 * 01), {@link dev.tidings.coordination.Countdown} (a countdown semaphore over leased parts, seed 05) and
 * {@link dev.tidings.coordination.RateLimiter} (a token bucket per key).
 *
 * <p>Each port has an implementation in {@code coordination.inprocess} (one node) and one in {@code
 * coordination.redis} (many nodes sharing one Redis); {@code Countdown} also has {@code
 * coordination.postgres}, the one a node uses, since a countdown must outlive restarts. All obey the
 * same contract suites ({@code *Contract} in the tests), which are the definition of each port's
 * behaviour.
 */
@NullMarked
package dev.tidings.coordination;

import org.jspecify.annotations.NullMarked;
