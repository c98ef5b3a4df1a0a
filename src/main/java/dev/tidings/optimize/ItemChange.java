package dev.tidings.optimize;

import dev.tidings.optimize.stats.Proportion;
import dev.tidings.optimize.stats.TestResult;

/**
 * An item whose best configuration is no longer the current one: {@code best} converts better than
 * {@code current} by {@code result} (difference, relative lift, 95% interval, p-value), and {@code holmAlpha}
 * is the threshold its p-value met after Holm's correction over the item's {@code challengers}.
 */
public record ItemChange(
    String itemId,
    String currentConfigurationId,
    String bestConfigurationId,
    Proportion current,
    Proportion best,
    TestResult result,
    int challengers,
    double holmAlpha) {}
