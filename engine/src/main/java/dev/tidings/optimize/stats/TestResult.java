package dev.tidings.optimize.stats;

/**
 * A comparison of a variant with its control. {@code difference} is {@code variant - control} in rate,
 * {@code relativeLift} that difference over the control's rate (NaN when the control has rate 0), and
 * {@code differenceInterval} the 95% Newcombe interval for the difference: the effect size and its
 * uncertainty, which say more than {@code pValue} alone.
 */
public record TestResult(
    double statistic,
    double pValue,
    double difference,
    double relativeLift,
    Interval differenceInterval,
    TestMethod method) {}
