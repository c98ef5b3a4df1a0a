package dev.tidings.sample;

/** Rows written per kind. */
public record SampleCounts(long products, long subscribers, long follows, long events) {}
