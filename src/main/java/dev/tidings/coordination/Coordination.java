package dev.tidings.coordination;

/**
 * The coordination primitives of one node, all from the same backend (in-process, or one Redis
 * shared by every node), so that a capability takes one thing instead of three.
 */
public record Coordination(ComputeOnce computeOnce, Countdown countdown, RateLimiter rateLimiter) {}
