package dev.tidings.coordination;

/**
 * The coordination primitives of one node, so that a capability takes one thing instead of three.
 * The wiring picks each one's backend: compute-once and rate limits in-process or on one Redis shared
 * by every node; countdowns, whose state must outlive restarts, in the database.
 */
public record Coordination(ComputeOnce computeOnce, Countdown countdown, RateLimiter rateLimiter) {}
