package dev.tidings.optimize.stats;

/** Which test produced a {@link TestResult}'s p-value. */
public enum TestMethod {
  /** The two-proportion z-test with the pooled standard error. */
  Z_TEST,
  /** Fisher's exact test, two-sided; used when a count is too small for the normal approximation. */
  FISHER_EXACT
}
