/**
 * Statistics for deciding between variants: proportions with Wilson and Newcombe intervals, the
 * two-proportion z-test and Fisher's exact test, Holm and Bonferroni corrections, an always-valid
 * sequential test (mSPRT) for results looked at repeatedly, fixed-horizon sample sizes, and Beta posteriors
 * for the probability of being best and Thompson sampling. Pure functions, no I/O.
 */
@NullMarked
package dev.tidings.optimize.stats;

import org.jspecify.annotations.NullMarked;
