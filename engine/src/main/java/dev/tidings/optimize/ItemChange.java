package dev.tidings.optimize;

import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.TestResult;

/**
 * An item whose best configuration is no longer the current one: {@code best} converts better than
 * {@code current} by {@code result} (difference, relative lift, 95% interval, p-value). {@code adjustedPValue}
 * is that p-value after Holm's correction over the item's {@code challengers}, and {@code threshold} what it
 * met: alpha, or the catalogue's Benjamini–Hochberg cutoff; with the empirical-Bayes decision no p-value
 * decides, the threshold is 1 and {@code notBetter} is the posterior probability that {@code best} is no
 * better than {@code current} (NaN for the decisions by p-value, which do not estimate it).
 */
public record ItemChange(
    String itemId,
    String currentConfigurationId,
    String bestConfigurationId,
    Proportion current,
    Proportion best,
    TestResult result,
    int challengers,
    double adjustedPValue,
    double threshold,
    double notBetter) {}
