/**
 * Coordination ports shared by every node of a Tidings installation: {@link
 * dev.tidings.coordination.ComputeOnce} (single-flight with a fenced lock and a published value, seed
 * 01), {@link dev.tidings.coordination.Countdown} (a countdown semaphore over leased parts, seed 05) and
 * {@link dev.tidings.coordination.RateLimiter} (a token bucket per key).
 *
 * <p>Each port has two implementations: {@code coordination.inprocess} for the single-node embedded
 * default, and {@code coordination.redis} for many nodes sharing one Redis. Both obey the same contract
 * suites ({@code *Contract} in the tests), which are the definition of each port's behaviour.
 */
@NullMarked
package dev.tidings.coordination;

import org.jspecify.annotations.NullMarked;
